import { queryOptions } from '@tanstack/react-query';
import { awaitsPartner, taskViewSchema, type TaskView } from '@partner-task-kit/workflow/contract';
import type { ApiClient } from './api-client.ts';
import { taskKeys } from './query-keys.ts';

function getTask(client: ApiClient): Promise<TaskView> {
  return client.call('GET', '/api/task', taskViewSchema);
}

/**
 * When the task began waiting on the partner, as this page saw it (a page holds one task query); undefined while it
 * does not wait, and again when the worker comes back to the page, which starts the intervals over.
 */
let waitingSince: number | undefined;

function awaiting({ state: { data: task } }: { state: { data: TaskView | undefined } }): boolean {
  return !!task && awaitsPartner({ status: task.status, currentStep: task.currentStep, steps: task.workflow.steps });
}

/**
 * Seeded by the session answer and by every mutation; fetched again only when invalidated, or while the task waits on
 * the partner (nothing the worker does can move it then): at growing intervals, and at once when the page is shown
 * again, which starts the intervals over.
 */
export function taskQueryOptions(client: ApiClient) {
  return queryOptions({
    queryKey: taskKeys.view(client.context),
    queryFn: () => getTask(client),
    staleTime: Infinity,
    // A quarter of the time waited so far, from 3 s up to a minute (docs/api.md#waiting-on-the-partner): a quick check
    // moves within 3 s; a check of a day costs a request a minute, not one every 3 s, and is still seen within a minute.
    refetchInterval: (query) => {
      if (!awaiting(query)) return (waitingSince = undefined);
      const now = Date.now();
      return Math.min(60_000, Math.max(3_000, (now - (waitingSince ??= now)) / 4));
    },
    refetchOnWindowFocus: (query) => awaiting(query) && ((waitingSince = undefined), 'always'),
  });
}
