import type { TaskUploads } from '@partner-task-kit/workflow/contract';
import type { Store } from '../store/store.ts';
import type { Task } from '../store/tasks.table.ts';
import { listUnsavedCompletedUploads } from '../store/uploads.repository.ts';

/**
 * The answer of `GET /api/task/uploads` for `task` (the one the session names): each file field's newest completed
 * upload of the current attempt that no saved step names (docs/api.md#uploads). An earlier attempt's, or another
 * task's, never.
 */
export async function unsavedUploadsOf(store: Store, task: Task): Promise<TaskUploads> {
  const newest = new Map<string, TaskUploads['uploads'][number]>();
  for (const upload of await listUnsavedCompletedUploads(store.db, { taskId: task.id, attempt: task.attempt })) {
    // Newest first: the first of each field is the one the worker chose last.
    const key = JSON.stringify([upload.stepId, upload.field]);
    if (!newest.has(key)) newest.set(key, { ...upload, createdAt: new Date(upload.createdAt).toISOString() });
  }
  return { uploads: [...newest.values()] };
}
