import type { TaskView } from './contract/task-view.ts';
import type { StepIssue, WorkflowDefinition } from './workflow-definition.ts';
import { answersBefore, stepById } from './workflow-path.ts';

/** Today's date as the server's checks see it: UTC, YYYY-MM-DD (packages/server/src/task-progress/step.service.ts). */
function todayUtc(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * A step's `check` run on the page before its data is sent, on the earlier answers the task shows (sensitive ones
 * masked, as the server's check reads them) and today's date: the worker sees the server's refusal before asking.
 * The server runs it again and is the authority (docs/decisions/001-the-server-is-the-authority.md).
 */
export function checkOnPage(
  workflow: WorkflowDefinition,
  task: TaskView,
  stepId: string,
  data: unknown,
  now = new Date(),
): StepIssue | undefined {
  const step = stepById(workflow, stepId);
  return step?.check?.(data, { answers: answersBefore(workflow, task.stepData, stepId), today: todayUtc(now) });
}
