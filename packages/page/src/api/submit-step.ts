import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiErrorStatus, stepResultSchema, type StepResult, type TaskView } from '@partner-task-kit/workflow/contract';
import type { ApiClient } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { sessionQueryOptions } from './open-session.ts';
import { taskKeys } from './query-keys.ts';
import { storeTaskView } from './task-cache.ts';

/**
 * Why the task the session answered cannot take `stepId`, by the server's own rule; undefined when it can. Loaded
 * only on this rare path (a click on the prerendered first step before the session answered): not in the first
 * screen's JavaScript.
 */
async function refusalOf(task: TaskView, stepId: string): Promise<ApiError | undefined> {
  const { stepRefusal } = await import('./step-refusal.ts');
  const refusal = stepRefusal({ status: task.status, currentStep: task.currentStep, steps: task.workflow.steps }, stepId);
  return refusal && new ApiError(apiErrorStatus[refusal.code], refusal.code, refusal.message, refusal.field);
}

async function submitStep(client: ApiClient, queryClient: QueryClient, stepId: string, data: unknown): Promise<StepResult> {
  // No task in the cache: the worker acted on the prerendered first step (packages/page/src/task/first-screen.tsx) before the session
  // answered, i.e. on the screen of a new task. A task opened before may be completed (a worker sent back to it by a
  // reset or a rejected review, docs/platform.md#statuses-and-transitions) or further on: that step is not its step, and sending it would only earn a 409.
  // Once the session answers, the page shows the task's own screen instead (the refusal reloads it, as a 409 would).
  if (queryClient.getQueryData(taskKeys.view(client.context)) === undefined) {
    const session = await queryClient.ensureQueryData(sessionQueryOptions(client, queryClient));
    const refusal = await refusalOf(session.task, stepId);
    if (refusal) throw refusal;
  }
  return client.call('POST', `/api/task/steps/${encodeURIComponent(stepId)}`, stepResultSchema, { data });
}

/** The answer is the server's decision (docs/decisions/001-the-server-is-the-authority.md): the cached task becomes what it returns. */
export function useSubmitStep(client: ApiClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { stepId: string; data: unknown }) => submitStep(client, queryClient, input.stepId, input.data),
    onSuccess: (result) => storeTaskView(queryClient, client.context, result.task),
  });
}
