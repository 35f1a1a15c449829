import type { ContextParamName } from '@partner-task-kit/workflow/contract';

/** Texts of the task page around a workflow (screens, states, errors). A workflow's own texts live in its folder. */
export interface ShellTexts {
  documentTitle: string;
  opening: string;
  standalone: string;
  emulator: string;
  contextError: {
    title: string;
    intro: string;
    missing(param: ContextParamName): string;
    invalid(param: ContextParamName, received: string): string;
    repeated(param: ContextParamName): string;
    workerHint: string;
    developerHintTitle: string;
    developerHint: string;
  };
  loadError: { title: string; retry: string };
  /** The server will not run this task here (company not set up, task unknown to the portal, bound to another worker). */
  notAvailable: { title: string };
  unknownWorkflow: {
    title: string;
    body(workflow: string): string;
    workerHint: string;
    developerHintTitle: string;
    developerHint(workflow: string): string;
  };
  /** The task is on a step this page has no screen for (a workflow changed under a task in progress). */
  unknownStep: {
    title: string;
    body(step: string): string;
    workerHint: string;
    reload: string;
    developerHintTitle: string;
    developerHint(workflow: string, step: string): string;
  };
  /** A save that got no answer (offline, timed out, a server fault): kept on screen and tried again by itself. */
  unsaved: { message: string; retryNow: string };
  progress(step: number, total: number): string;
  progressLabel: string;
  saving: string;
  saved: string;
  errors: Record<
    | 'network'
    | 'server'
    | 'rate_limited'
    | 'session'
    | 'task_changed'
    | 'invalid'
    | 'unknown_company'
    | 'task_rejected'
    | 'context_mismatch'
    | 'unknown_workflow'
    | 'unknown',
    string
  >;
  done: {
    title: string;
    body(date: string): string;
    portalNotified: string;
    standaloneNotice: string;
    /** The done screen of a task that was already completed when the page loaded: the worker may have been sent back. */
    reopened: { title: string; completedOn(date: string): string; redo: string; keep: string; kept: string };
  };
  failed: {
    title: string;
    attemptsExhausted(max: number): string;
    /** No reason given, no next step defined: `problem` and `nextStep` in one sentence. */
    other: string;
    /** The partner's check failed and the partner gave no reason for the worker (`failure.workerMessage`). */
    problem: string;
    /** Under the reason, when the step's definition says no next step of its own (`failedNextStep`). */
    nextStep: string;
  };
  /** The control at the top of every step but the first: the step before on the task's path, its answer kept. */
  back: string;
  restart: { startAgain: string; startOver: string; confirm: string; yes: string; cancel: string };
  loadingStep: string;
}
