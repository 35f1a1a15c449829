import { isClosed, currentStepOf, type TaskFailure, type TaskView } from '@partner-task-kit/workflow/contract';
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
    stepData: maskSealed(task.stepData),
    gradedAttempts,
    failure: parseFailure(task.failedReason),
    history: history.map((entry) => ({
      kind: entry.kind,
      attempt: entry.attempt,
      stepId: entry.stepId,
      at: new Date(entry.at).toISOString(),
    })),
    updatedAt: new Date(task.updatedAt).toISOString(),
  };
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

function parseFailure(stored: string | null): TaskFailure | null {
  if (stored === null) return null;
  const [reason, stepId] = stored.split(':');
  return (reason === 'attempts_exhausted' || reason === 'partner_failed') && stepId ? { reason, stepId } : null;
}
