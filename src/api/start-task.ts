import { useMutation, useQueryClient } from '@tanstack/react-query';
import { taskViewSchema, type TaskView } from '../contract/task-view';
import type { ApiClient } from './api-client';
import { storeTaskView } from './task-cache';

/** POST /api/task/start: the attempt's first interaction (spec 3 ready -> inProgress); idempotent on the server. */
export function startTask(client: ApiClient): Promise<TaskView> {
  return client.call('POST', '/api/task/start', taskViewSchema, {});
}

export function useStartTask(client: ApiClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startTask(client),
    onSuccess: (view) => storeTaskView(queryClient, client.context, view),
  });
}
