import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiErrorStatus } from '../contract/api-errors';
import { stepResultSchema, type StepResult } from '../contract/step-submission';
import type { TaskView } from '../contract/task-view';
import type { ApiClient } from './api-client';
import { ApiError } from './api-error';
import { sessionQueryOptions } from './open-session';
import { taskKeys } from './query-keys';
import { storeTaskView } from './task-cache';

/**
 * Why the task the session answered cannot take `stepId`, as the server would refuse it; undefined when it can. The
 * server decides all the same (DESIGN decision 1): this only keeps a submission made blind from being sent.
 */
function refusalOf(task: TaskView, stepId: string): ApiError | undefined {
  if (task.status === 'completed' || task.status === 'error') {
    return new ApiError(apiErrorStatus.task_closed, 'task_closed', `This task is ${task.status}; start again to make a new attempt.`);
  }
  const current = task.currentStep ?? task.workflow.steps[0]?.id;
  if (current !== stepId) {
    return new ApiError(apiErrorStatus.step_out_of_order, 'step_out_of_order', `The current step is "${current ?? 'none'}".`, 'stepId');
  }
  return undefined;
}

async function submitStep(client: ApiClient, queryClient: QueryClient, stepId: string, data: unknown): Promise<StepResult> {
  // No task in the cache: the worker acted on the prerendered first step (src/task/first-screen.tsx) before the session
  // answered, i.e. on the screen of a new task. A task opened before may be completed (a worker sent back to it by a
  // reset or a rejected review, spec 3) or further on: that step is not its step, and sending it would only earn a 409.
  // Once the session answers, the page shows the task's own screen instead (the refusal reloads it, as a 409 would).
  if (queryClient.getQueryData(taskKeys.view(client.context)) === undefined) {
    const session = await queryClient.ensureQueryData(sessionQueryOptions(client, queryClient));
    const refusal = refusalOf(session.task, stepId);
    if (refusal) throw refusal;
  }
  return client.call('POST', `/api/task/steps/${encodeURIComponent(stepId)}`, stepResultSchema, { data });
}

/** The answer is the server's decision (DESIGN decision 1): the cached task becomes what it returns. */
export function useSubmitStep(client: ApiClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { stepId: string; data: unknown }) => submitStep(client, queryClient, input.stepId, input.data),
    onSuccess: (result) => storeTaskView(queryClient, client.context, result.task),
  });
}
