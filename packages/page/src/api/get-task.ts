import { queryOptions } from '@tanstack/react-query';
import { awaitsPartner, taskViewSchema, type TaskView } from '@partner-task-kit/workflow/contract';
import type { ApiClient } from './api-client.ts';
import { taskKeys } from './query-keys.ts';

function getTask(client: ApiClient): Promise<TaskView> {
  return client.call('GET', '/api/task', taskViewSchema);
}

/**
 * How long to wait before asking again for a task the partner's backend has, after waiting `waitedMs` already: a
 * quarter of it, from 3 s up to a minute (docs/api.md#waiting-on-the-partner). A quick check moves within 3 s; a check
 * of a day costs a request a minute, not one every 3 s, and is still seen within a minute.
 */
export function partnerWaitPollMs(waitedMs: number): number {
  return Math.min(60_000, Math.max(3_000, waitedMs / 4));
}

/** What of a task query the waiting reads: the task it holds. */
interface TaskQuery {
  state: { data: TaskView | undefined };
}

/** When each task query began waiting on the partner, as this page saw it; reset when the worker comes back to it. */
const waitingSince = new WeakMap<TaskQuery, number>();

function awaiting(query: TaskQuery): boolean {
  const task = query.state.data;
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
    refetchInterval: (query) => {
      if (!awaiting(query)) {
        waitingSince.delete(query);
        return false;
      }
      const now = Date.now();
      if (!waitingSince.has(query)) waitingSince.set(query, now);
      return partnerWaitPollMs(now - waitingSince.get(query)!);
    },
    refetchOnWindowFocus: (query) => {
      if (!awaiting(query)) return false;
      waitingSince.delete(query);
      return 'always';
    },
  });
}
