import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssignmentView } from '@partner-task-kit/dev/emulator/task-rules';
import { parseConfig } from '@partner-task-kit/server/config';
import { planDevServers } from '@partner-task-kit/vite-plugin/cli/dev-environment';
import { control } from '../helpers/emulator-control';
import { freePort, spawnServer, type ServerProcess } from '../helpers/server-process';
import { newContext, openSession } from '../helpers/task-app';

let directory: string;
const servers: ServerProcess[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-dev-restart-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill('SIGKILL')));
  rmSync(directory, { recursive: true, force: true });
});

/** The server's environment exactly as `npm run dev` makes it (packages/vite-plugin/src/cli/dev-environment.ts), in a folder of its own. */
async function devServerEnvironment(): Promise<Record<string, string>> {
  const environment = {
    DATABASE_URL: join(directory, 'partner-task.db'),
    EMULATOR_STATE_FILE: join(directory, 'emulator.db'),
  };
  const parsed = parseConfig(environment);
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const plan = planDevServers(environment, parsed.config, await freePort(), await freePort());
  return Object.fromEntries(Object.entries(plan.serverEnvironment).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The statuses the emulator applied for the task, as the preview's task panel shows them. */
async function appliedStatuses(url: string, uuid: string): Promise<string[]> {
  const task = await control(`${url}/emulator`).assignment<AssignmentView>(uuid);
  return task.trail.flatMap((entry) => (entry.kind === 'partner' && entry.outcome === 'applied' ? [entry.record.taskStatus] : []));
}

describe('npm run dev: a server restarted by a code change', () => {
  it('keeps an opened task working: the emulator still knows it and applies its next update', async () => {
    const env = await devServerEnvironment();
    const first = await spawnServer(env);
    servers.push(first);
    const context = newContext();
    // What the preview's launch does: the portal assigns the task, then opens the page.
    const assigned = await fetch(`${first.url}/emulator/control/assignments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'A task opened in the preview',
        iframeUrl: 'http://127.0.0.1/task',
        workerUuid: context.wxWorkerUuid,
        assignedTaskUuid: context.wxAssignedTaskUuid,
        taskFlowUuid: context.wxTaskFlowUuid,
        companyUuid: context.wxCompanyUuid,
      }),
    });
    expect(assigned.status).toBe(201);
    await openSession(first.url, context);
    await expect.poll(() => appliedStatuses(first.url, context.wxAssignedTaskUuid), { timeout: 10_000 }).toEqual(['ready']);

    // tsx watch stops the server with SIGTERM and starts it again with the same environment.
    await first.kill('SIGTERM');
    const second = await spawnServer(env);
    servers.push(second);

    // The page renews its session (a new secret per start in emulator mode) and goes on.
    const { token } = await openSession(second.url, context);
    const started = await fetch(`${second.url}/api/task/start`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(started.status).toBe(200);
    await expect
      .poll(() => appliedStatuses(second.url, context.wxAssignedTaskUuid).catch((error: unknown) => String(error)), { timeout: 10_000 })
      .toEqual(['ready', 'inProgress']);
    // A task the platform answered 404 for becomes rejected (docs/decisions/008-a-deputy-for-many-companies.md), and its calls answer 410.
    const task = await fetch(`${second.url}/api/task`, { headers: { authorization: `Bearer ${token}` } });
    expect(task.status).toBe(200);
  }, 60_000);
});
