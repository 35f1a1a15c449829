import {
  asViewTexts,
  isClosed,
  currentStepOf,
  localisedTextSchema,
  type TaskFailure,
  type TaskView,
} from '@partner-task-kit/workflow/contract';
import { type Grade, type WorkflowDefinition, longestPathOf, previousStepId, progressOf, stepById } from '@partner-task-kit/workflow';
import { maskSealed } from '../sensitive/sensitive-values.ts';
import type { TaskHistoryFact } from '../store/task-history.table.ts';
import type { Task } from '../store/tasks.table.ts';

/** The one conversion from a stored task to what the page sees (docs/architecture.md#one-row-conversion). Nothing secret is in a Task row. */
export function toTaskView(task: Task, history: readonly TaskHistoryFact[], workflow: WorkflowDefinition): TaskView {
  const over = isClosed(task.status);
  const current = over ? undefined : currentStepOf({ currentStep: task.currentStep, steps: workflow.steps });
  const step = current === undefined ? undefined : stepById(workflow, current);
  const gradedAttempts: TaskView['gradedAttempts'] = {};
  for (const step of workflow.steps) {
    if (step.grading) gradedAttempts[step.id] = { used: failedTries(history, task.attempt, step.id).length, max: step.grading.maxAttempts };
  }
  return {
    id: task.id,
    assignedTaskUuid: task.assignedTaskUuid,
    workflow: {
      id: workflow.id,
      estimatedMinutes: workflow.estimatedMinutes,
      steps: workflow.steps.map((step) =>
        step.completedBy === 'partner' ? { id: step.id, completedBy: 'partner' as const } : { id: step.id },
      ),
      longestPath: longestPathOf(workflow),
    },
    status: task.status,
    attempt: task.attempt,
    started: task.attemptStartedAt !== null,
    currentStep: current ?? null,
    progress: current === undefined ? null : progressOf(workflow, task.stepData, current),
    canGoBack: current !== undefined && step?.completedBy !== 'partner' && previousStepId(workflow, task.stepData, current) !== undefined,
    canRestart: !(step?.completedBy === 'partner' && step.restartWhileAwaiting === false && task.status === 'inProgress'),
    stepData: workerStepData(maskSealed(task.stepData), workflow),
    gradedAttempts,
    failure: failureOf(task, history, workflow),
    history: history.map((entry) => ({
      kind: entry.kind,
      attempt: entry.attempt,
      stepId: entry.stepId,
      at: new Date(entry.at).toISOString(),
    })),
    updatedAt: new Date(task.updatedAt).toISOString(),
  };
}

/**
 * The answers the page may resume with: the worker's own steps'. A step the partner completes carries what the
 * partner's backend tells the platform's admins (`details`), not the worker: it never reaches the page.
 */
function workerStepData(stepData: Record<string, unknown>, workflow: WorkflowDefinition): Record<string, unknown> {
  return Object.fromEntries(Object.entries(stepData).filter(([stepId]) => stepById(workflow, stepId)?.completedBy !== 'partner'));
}

/** Scores of the failed tries of a graded step in one attempt, oldest first (history kind `graded_step_failed`). */
export function failedTries(history: readonly TaskHistoryFact[], attempt: number, stepId: string): Grade[] {
  return history
    .filter((entry) => entry.kind === 'graded_step_failed' && entry.attempt === attempt && entry.stepId === stepId)
    .map((entry) => ({ score: Number(entry.detail?.score ?? 0), total: Number(entry.detail?.total ?? 0) }));
}

/** failed_reason is stored as `<reason>:<stepId>` so the page can explain it in the worker's language. */
export function formatFailure(failure: TaskFailure): string {
  return `${failure.reason}:${failure.stepId}`;
}

/**
 * Why the attempt ended, with what the worker is told: for a partner's failed result, the partner's `workerMessage`
 * kept in the attempt's `failed` history entry, and the step's `failedNextStep`. A message that no longer parses (an
 * older release's, say) is left out rather than shown half-right.
 */
function failureOf(task: Task, history: readonly TaskHistoryFact[], workflow: WorkflowDefinition): TaskFailure | null {
  const failure = parseFailure(task.failedReason);
  if (failure?.reason !== 'partner_failed') return failure;
  const entry = history.findLast((fact) => fact.kind === 'failed' && fact.attempt === task.attempt && fact.stepId === failure.stepId);
  const message = localisedTextSchema.safeParse(entry?.detail?.workerMessage);
  const nextStep = stepById(workflow, failure.stepId)?.failedNextStep;
  return {
    ...failure,
    ...(message.success ? { workerMessage: asViewTexts(message.data) } : {}),
    ...(nextStep === undefined ? {} : { nextStep: asViewTexts(nextStep) }),
  };
}

function parseFailure(stored: string | null): TaskFailure | null {
  if (stored === null) return null;
  const [reason, stepId] = stored.split(':');
  return (reason === 'attempts_exhausted' || reason === 'partner_failed') && stepId ? { reason, stepId } : null;
}
