import { useMutation, useQueryClient } from '@tanstack/react-query';
import { stepResultSchema, type StepResult } from '../contract/step-submission';
import type { ApiClient } from './api-client';
import { storeTaskView } from './task-cache';

function submitStep(client: ApiClient, stepId: string, data: unknown): Promise<StepResult> {
  return client.call('POST', `/api/task/steps/${encodeURIComponent(stepId)}`, stepResultSchema, { data });
}

/** The answer is the server's decision (DESIGN decision 1): the cached task becomes what it returns. */
export function useSubmitStep(client: ApiClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { stepId: string; data: unknown }) => submitStep(client, input.stepId, input.data),
    onSuccess: (result) => storeTaskView(queryClient, client.context, result.task),
  });
}
