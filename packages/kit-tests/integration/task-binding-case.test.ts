import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { callFrom, startPlatformServer, type PlatformServer } from '../helpers/platform-server';
import { testDatabase, type BlankTestDatabase } from '../helpers/test-databases';
import { newContext, requestSession } from '../helpers/task-app';

let running: { platform: PlatformServer; database: BlankTestDatabase } | undefined;
afterEach(async () => {
  await running?.platform.close();
  await running?.database.cleanup();
  running = undefined;
});

describe.each(['sqlite', 'postgres'] as const)('task binding on %s', (engine) => {
  it('meets a task id in another letter case with the same binding: 409 for another context, nothing sent', async () => {
    const database = await testDatabase(engine).create();
    const platform = await startPlatformServer(database);
    running = { platform, database };
    const company = randomUUID();
    const worker = newContext({ wxCompanyUuid: company });
    await platform.emulator.assign(worker.wxAssignedTaskUuid, { companyUuid: company });
    const opened = await requestSession(platform.server.url, worker);
    expect(opened.status).toBe(200);
    await expect.poll(() => platform.requestsFor(worker.wxAssignedTaskUuid), { timeout: 10_000 }).toEqual([200]);

    const upper = worker.wxAssignedTaskUuid.toUpperCase();
    const attacker = { ...newContext({ wxCompanyUuid: company }), wxAssignedTaskUuid: upper };
    const refused = await requestSession(platform.server.url, attacker, { from: '127.0.0.3' });
    expect([refused.status, refused.code, refused.token]).toEqual([409, 'context_mismatch', undefined]);

    // The worker's own context in upper case is the same task, not a second one: its session acts on the one task.
    const same = await requestSession(platform.server.url, {
      wxWorkerUuid: worker.wxWorkerUuid.toUpperCase(),
      wxAssignedTaskUuid: upper,
      wxTaskFlowUuid: worker.wxTaskFlowUuid.toUpperCase(),
      wxCompanyUuid: worker.wxCompanyUuid.toUpperCase(),
    });
    expect(same.status).toBe(200);
    const task = await callFrom('127.0.0.1', `${platform.server.url}/api/task`, { token: same.token! });
    expect(task.body).toMatchObject({ assignedTaskUuid: worker.wxAssignedTaskUuid });
    expect(await platform.server.store.db.selectFrom('tasks').select('assigned_task_uuid').execute()).toEqual([
      { assigned_task_uuid: worker.wxAssignedTaskUuid },
    ]);
    // Only the worker's own `ready` reached the platform, under the id as first received.
    const requests = await platform.emulator.requests('partnerTask');
    expect(requests.map((request) => request.path.split('/').pop())).toEqual([worker.wxAssignedTaskUuid]);
  });
});
