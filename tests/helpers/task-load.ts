import { randomUUID } from 'node:crypto';
import type { TaskStatus } from '../../src/contract/partner-task-update';

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
