import { useMutation, useQueryClient } from '@tanstack/react-query';
import { taskViewSchema, type TaskView } from '@partner-task-kit/workflow/contract';
import type { ApiClient } from './api-client.ts';
import { storeTaskView } from './task-cache.ts';

/** POST /api/task/restart: a new attempt with the same parameters (docs/platform.md#statuses-and-transitions); the server sends `ready`. */
function restartTask(client: ApiClient): Promise<TaskView> {
  return client.call('POST', '/api/task/restart', taskViewSchema, {});
}

export function useRestartTask(client: ApiClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => restartTask(client),
    onSuccess: (view) => storeTaskView(queryClient, client.context, view),
  });
}
