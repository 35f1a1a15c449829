import type { ComponentType, ReactNode } from 'react';
import type { GradingResult, TaskView } from '@partner-task-kit/workflow/contract';
import type { Locale } from '../ui/i18n/locale.ts';

/** What the step runner gives a workflow's screens. The runner owns saving, errors and progress; a step owns its form. */
export interface StepViewProps {
  task: TaskView;
  stepId: string;
  /** What the server saved for this step in this attempt, to resume with the worker's answers. */
  savedData: unknown;
  locale: Locale;
  /** True while a submission is being saved: the step disables its submit button and says so. */
  saving: boolean;
  /** The outcome of the last graded submission of this step, when there was one in this page's life. */
  grading: GradingResult | undefined;
  /** The id of the step's heading (the page's h1); render it with FocusHeading. */
  headingId: string;
  /** Whether the heading takes focus when the step appears after a save moved here (FocusHeading itself takes it after a restart). */
  focusHeading: boolean;
  /**
   * The field of this step's data the server refused (400 invalid_step_data, e.g. an expiry date a step's `check`
   * finds past): the screen shows it on that input, in the worker's language, as it shows its own checks.
   */
  refusal?: StepRefusal | undefined;
  onSubmit(data: unknown): void;
}

/**
 * What a step's screen gets, a workflow's `steps/<step-id>.tsx` (docs/architecture.md#a-workflow-is-a-folder): the
 * step runner's props and the workflow's texts in the page's language, `undefined` for a workflow that has none.
 */
export type StepScreenProps<Texts = undefined> = StepViewProps & { texts: Texts };

/** A field of a step's data the server refused, as its 400 names it (`data.expiryDate`), and the server's message. */
export interface StepRefusal {
  field: string;
  message: string;
}

/** What the shell gives a workflow's own done or failure screen (`WorkflowScreens.done`, `.failed`). */
export interface EndScreenProps {
  task: TaskView;
  locale: Locale;
  /** The attempt ended on this page now (the heading takes focus), not before it was loaded. */
  justEnded: boolean;
  /** The shell's "Start again" (absent when the task may not be restarted): render it where the screen offers it. */
  restart: ReactNode;
}

/**
 * A workflow's screens as the page loads them, exported as `screens` by the module the page's build writes for each
 * workflow folder (folderScreens in folder-screens.tsx): the app's table of screens loads it by the workflow's id, and a
 * link's prerendered first page by the file its HTML names (packages/page/src/workflows/workflow-views.tsx).
 */
export interface WorkflowScreens {
  /** The screen of each step id. */
  view: ComponentType<StepViewProps>;
  /** Fetches the texts of one language when they come one chunk per language. */
  loadTexts?: (locale: Locale) => Promise<unknown>;
  /**
   * Fetches the code of one step's screen when each step is a chunk of its own: the page fetches the first step's
   * before it hydrates that step's prerendered markup, so the step renders with no Suspense boundary.
   */
  loadStep?: (stepId: string) => Promise<unknown>;
  /** The workflow's own screen once the task is completed; absent: the shell's (packages/page/src/task/done-screen.tsx). */
  done?: ComponentType<EndScreenProps>;
  /** The workflow's own screen once the attempt failed; absent: the shell's (packages/page/src/task/failed-screen.tsx). */
  failed?: ComponentType<EndScreenProps>;
}

/**
 * Thrown by a workflow's screens for a step id they have no screen for (the definition gained a step its screens do
 * not render yet). The step runner catches it and shows a screen saying so, with what to do, instead of a blank page.
 */
export class MissingStepScreenError extends Error {
  constructor(readonly stepId: string) {
    super(`this workflow's screens render no step "${stepId}"`);
    this.name = 'MissingStepScreenError';
  }
}
