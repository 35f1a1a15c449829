import { queryOptions } from '@tanstack/react-query';
import { awaitsPartner, taskViewSchema, type TaskView } from '@partner-task-kit/workflow/contract';
import type { ApiClient } from './api-client.ts';
import { taskKeys } from './query-keys.ts';

function getTask(client: ApiClient): Promise<TaskView> {
  return client.call('GET', '/api/task', taskViewSchema);
}

/** While the partner's backend has the task, the page asks again this often: the worker sees it move within 5 s. */
const PARTNER_WAIT_POLL_MS = 3_000;

/**
 * Seeded by the session answer and by every mutation; fetched again only when invalidated, or every few seconds while
 * the task waits on the partner (nothing the worker does can move it then).
 */
export function taskQueryOptions(client: ApiClient) {
  return queryOptions({
    queryKey: taskKeys.view(client.context),
    queryFn: () => getTask(client),
    staleTime: Infinity,
    refetchInterval: (query) => {
      const task = query.state.data;
      return task && awaitsPartner({ status: task.status, currentStep: task.currentStep, steps: task.workflow.steps })
        ? PARTNER_WAIT_POLL_MS
        : false;
    },
  });
}
