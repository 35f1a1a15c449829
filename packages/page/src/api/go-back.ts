import { useMutation, useQueryClient } from '@tanstack/react-query';
import { taskViewSchema, type TaskView } from '@partner-task-kit/workflow/contract';
import type { ApiClient } from './api-client.ts';
import { storeTaskView } from './task-cache.ts';

/** POST /api/task/back (docs/api.md#post-apitaskback): the step before `from` on the path, its answer kept to edit. */
function goBack(client: ApiClient, from: string): Promise<TaskView> {
  return client.call('POST', '/api/task/back', taskViewSchema, { from });
}

export function useGoBack(client: ApiClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (from: string) => goBack(client, from),
    onSuccess: (view) => storeTaskView(queryClient, client.context, view),
  });
}
