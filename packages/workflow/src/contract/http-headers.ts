/**
 * Header names of the page <-> server contract. The page names the assigned task it means to act on; a session token
 * for another task is then refused (403 wrong_task), so a page that mixed up two sessions fails loudly instead of
 * changing the wrong task.
 */
export const ASSIGNED_TASK_HEADER = 'x-wx-assigned-task-uuid';
