/**
 * The four task statuses a partner may send (docs/platform.md#partner-task-update-record). `viewed` appears in the
 * review-reset rule (docs/platform.md#statuses-and-transitions) but is not among the allowed values, so we never send
 * it. No schema library here: the page imports this module, and the task page's JavaScript budget counts every byte.
 */
export const taskStatuses = ['ready', 'inProgress', 'completed', 'error'] as const;
export type TaskStatus = (typeof taskStatuses)[number];

/** Completed or in error: the attempt is over, and only a new attempt (a restart) moves the task again. */
export function isClosed(status: string): status is 'completed' | 'error' {
  return status === 'completed' || status === 'error';
}
