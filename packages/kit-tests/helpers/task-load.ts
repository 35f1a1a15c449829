import { randomUUID } from 'node:crypto';
import type { TaskStatus } from '@partner-task-kit/workflow/contract/task-status';

/** What a worker's actions acknowledged with a 2xx must eventually produce at the platform, in this order. */
export interface AckedTask {
  assignedTaskUuid: string;
  acked: TaskStatus[];
}

type Action = { path: string; status: TaskStatus };

/** Each cycle is two actions that each enqueue one update: a first interaction (inProgress), then a restart (ready). */
const cycle: Action[] = [
  { path: '/api/task/start', status: 'inProgress' },
  { path: '/api/task/restart', status: 'ready' },
];

/**
 * Drives one task through the real HTTP API: open (ready), then start/restart cycles, one request at a time as a
 * worker would. `pick` chooses the server of each request (two servers share one database). Stops at the first
 * failed request: the server may have died, and anything not acknowledged is not owed.
 */
export async function driveTask(pick: () => string, cycles: number, record: AckedTask): Promise<void> {
  const context = {
    wxWorkerUuid: randomUUID(),
    wxAssignedTaskUuid: record.assignedTaskUuid,
    wxTaskFlowUuid: randomUUID(),
    wxCompanyUuid: randomUUID(),
  };
  try {
    const opened = await fetch(`${pick()}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(context),
    });
    if (!opened.ok) return;
    const { token } = (await opened.json()) as { token: string };
    record.acked.push('ready');
    for (let index = 0; index < cycles; index += 1) {
      for (const action of cycle) {
        const response = await fetch(`${pick()}${action.path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
        if (!response.ok) return;
        await response.arrayBuffer();
        record.acked.push(action.status);
      }
    }
  } catch {
    // Connection refused or reset: the server is gone. What was acknowledged so far is what is owed.
  }
}

/** A task driven through database faults: what was acknowledged, and what the database holds (a superset). */
export interface DrivenTask extends AckedTask {
  /**
   * Every update the database holds for the task, in order: the acknowledged ones, plus any whose request failed
   * after its transaction had committed (owed to nobody, but the relay delivers it all the same).
   */
  committed: TaskStatus[];
  /** When (performance.now()) each request answered with an error status or cut off ended; each was tried again. */
  failedAt: number[];
  /** Set when the driver gave up at its deadline with an action whose outcome it could not learn. */
  unresolved?: boolean;
}

export interface FaultDriveOptions {
  /** Checked between actions: true ends the drive once the task is in a known state. */
  stop: () => boolean;
  /** A worker's pause between two actions; bounds how many updates the load makes. */
  pauseMs: number;
  /** The wait before trying a failed request again. */
  retryMs: number;
  /** performance.now() after which the driver stops trying (a server or database that never came back). */
  deadline: number;
}

/**
 * Like `driveTask`, but a failed request is tried again instead of ending the drive, so the load goes on through the
 * fault, and the driver keeps an exact account of the updates the database holds. Opening a session and starting an
 * attempt are idempotent, so trying them again enqueues nothing more. A restart is not: a failed one may have committed
 * before its answer was lost, so before trying again the driver reads the task and sees whether the attempt moved on.
 * Requests get no short client timeout: giving up on one the server still runs would break that account.
 */
export async function driveTaskThroughFaults(pick: () => string, record: DrivenTask, options: FaultDriveOptions): Promise<void> {
  const context = {
    wxWorkerUuid: randomUUID(),
    wxAssignedTaskUuid: record.assignedTaskUuid,
    wxTaskFlowUuid: randomUUID(),
    wxCompanyUuid: randomUUID(),
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let token = '';
  /** One request; its parsed body on a 2xx, undefined on an error status or a network failure (counted). */
  const send = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T | undefined> => {
    try {
      const response = await fetch(`${pick()}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
        signal: AbortSignal.timeout(30_000),
      });
      const parsed = (await response.json().catch(() => undefined)) as T | undefined;
      if (response.ok && parsed !== undefined) return parsed;
    } catch {
      // Refused, reset or timed out: counted below like an error status.
    }
    record.failedAt.push(performance.now());
    return undefined;
  };
  /** Tries a request again until it succeeds; undefined once the deadline passed. */
  const untilOk = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T | undefined> => {
    for (;;) {
      const result = await send<T>(method, path, body);
      if (result !== undefined) return result;
      if (performance.now() > options.deadline) {
        record.unresolved = true;
        return undefined;
      }
      await pause(options.retryMs);
    }
  };
  const both = (status: TaskStatus) => {
    record.acked.push(status);
    record.committed.push(status);
  };

  const opened = await untilOk<{ token: string }>('POST', '/api/session', context);
  if (!opened) return;
  token = opened.token;
  both('ready');
  let attempt = 1;
  while (!options.stop()) {
    await pause(options.pauseMs);
    if (!(await untilOk('POST', '/api/task/start'))) return;
    both('inProgress');
    await pause(options.pauseMs);
    for (;;) {
      const restarted = await send<{ attempt: number }>('POST', '/api/task/restart');
      if (restarted) {
        both('ready');
        attempt = restarted.attempt;
        break;
      }
      // The answer is lost, not necessarily the restart: the task's attempt tells whether it committed.
      const task = await untilOk<{ attempt: number }>('GET', '/api/task');
      if (!task) return;
      if (task.attempt > attempt) {
        record.committed.push('ready');
        attempt = task.attempt;
        break;
      }
      await pause(options.retryMs);
    }
  }
}
