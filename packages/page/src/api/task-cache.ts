import type { QueryClient } from '@tanstack/react-query';
import type { TaskContext, TaskView } from '@partner-task-kit/workflow/contract';
import { taskKeys } from './query-keys.ts';

/**
 * Every answer carrying the task goes through here. A view older than the cached one (a session renewal that
 * crossed a step submission) is dropped, so the page never steps back.
 */
export function storeTaskView(queryClient: QueryClient, context: TaskContext, view: TaskView): void {
  queryClient.setQueryData<TaskView>(taskKeys.view(context), (cached) =>
    cached && Date.parse(cached.updatedAt) > Date.parse(view.updatedAt) ? cached : view,
  );
}
