import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { environmentManager, focusManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { createApiClient } from '@partner-task-kit/page/api/api-client';
import { taskQueryOptions } from '@partner-task-kit/page/api/get-task';
import type { TaskView } from '@partner-task-kit/workflow/contract';
import { pageContext, readyTaskView } from '@partner-task-kit/testing';

// docs/api.md#waiting-on-the-partner: the page asks again for a task the partner's backend has, at growing intervals.

/** A task waiting on the partner's backend: its current step is one the partner completes. */
const waiting: TaskView = {
  ...readyTaskView,
  status: 'inProgress',
  started: true,
  workflow: { ...readyTaskView.workflow, steps: [{ id: 'first-step' }, { id: 'check', completedBy: 'partner' }] },
  currentStep: 'check',
};

/** The task query as the page runs it, on a fake clock: the GET /api/task requests it sends, by when. */
function waitingPage(answer: () => TaskView) {
  const asked: number[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    if (String(input) === '/api/task') asked.push(Date.now());
    const body =
      String(input) === '/api/session'
        ? { token: 't', expiresAt: new Date(Date.now() + 3_600_000).toISOString(), task: waiting, environment: { emulator: true } }
        : answer();
    return new Response(JSON.stringify(body), { status: 200 });
  };
  const client = createApiClient({ context: pageContext, fetch: fetch as typeof globalThis.fetch });
  const queryClient = new QueryClient();
  // As QueryClientProvider does: the client hears the page being shown again (focusManager, visibilitychange).
  queryClient.mount();
  const options = taskQueryOptions(client);
  // Seeded as the session answer seeds it (task-session.tsx), then watched as the page watches it.
  queryClient.setQueryData(options.queryKey, waiting);
  const observer = new QueryObserver(queryClient, options);
  const stop = observer.subscribe(() => {});
  return {
    asked,
    stop: () => {
      stop();
      queryClient.unmount();
      queryClient.clear();
    },
  };
}

/** The seconds between one request and the next. */
const gaps = (times: number[]) => times.slice(1).map((time, index) => (time - times[index]!) / 1000);

describe('the page waiting on the partner', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    // TanStack Query schedules no refetch timer on a server; this is a browser's page, run in Node.
    environmentManager.setIsServer(() => false);
    focusManager.setFocused(true);
  });
  afterEach(() => {
    environmentManager.setIsServer(() => typeof window === 'undefined');
    focusManager.setFocused(undefined);
    vi.useRealTimers();
  });

  it('asks every 3 s at first, then less and less often, and once a minute after a few minutes', async () => {
    const page = waitingPage(() => waiting);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    page.stop();
    const between = gaps([0, ...page.asked]);
    // 3 s for the first 12 s, then growing with each request, never past a minute.
    expect(between.slice(0, 4)).toEqual([3, 3, 3, 3]);
    for (const [index, gap] of between.entries()) if (index > 0) expect(gap).toBeGreaterThanOrEqual(between[index - 1]!);
    expect(Math.max(...between)).toBe(60);
    expect(between.at(-1)).toBe(60);
    // Every 3 s for ten minutes would be 200 requests.
    expect(page.asked.length).toBeLessThan(30);
  });

  it('asks at once when the page is shown again, and starts again at 3 s', async () => {
    const page = waitingPage(() => waiting);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    focusManager.setFocused(false);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    // Hidden, the page asks nothing.
    const beforeShown = page.asked.length;
    const hiddenSince = 15 * 60_000;
    expect(page.asked.filter((time) => time > 10 * 60_000)).toEqual([]);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(12_000);
    page.stop();
    expect(page.asked.slice(beforeShown)).toEqual([
      hiddenSince,
      hiddenSince + 3_000,
      hiddenSince + 6_000,
      hiddenSince + 9_000,
      hiddenSince + 12_000,
    ]);
  });

  it('stops asking once the task no longer waits on the partner', async () => {
    let task = waiting;
    const page = waitingPage(() => task);
    await vi.advanceTimersByTimeAsync(6_000);
    task = { ...waiting, status: 'completed', currentStep: null };
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    page.stop();
    expect(page.asked).toEqual([3_000, 6_000, 9_000]);
  });
});
