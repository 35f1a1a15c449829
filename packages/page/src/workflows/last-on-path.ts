import type { TaskView } from '@partner-task-kit/workflow/contract';

/**
 * Whether saving the task's current step may end the attempt: no step is left after it on its longest path
 * (`progress`, docs/api.md#the-task). The page then fetches the end screens while the worker is on it, as it fetches
 * the next step's screen on the steps before.
 */
export function isLastOnPath({ progress }: TaskView): boolean {
  return progress !== null && progress.position >= progress.total;
}
