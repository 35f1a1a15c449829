import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'vitest';
import { listUpdatesForTask } from '@partner-task-kit/server/store/outbox-status.repository';
import { findTaskByAssignedTaskUuid } from '@partner-task-kit/server/store/tasks.repository';
import { callFrom, circuitOpenings, startPlatformServer, type PlatformServer } from '../helpers/platform-server';
import { testDatabase } from '../helpers/test-databases';
import { newContext, requestSession } from '../helpers/task-app';

/**
 * Anyone who knows a company's UUID (it is in every link) can open sessions for task ids the platform never assigned.
 * The platform refuses their updates (404); those refusals must cost the invented tasks alone. These tests run the
 * default retry policy: its timings (six tries within 90 s) are what they pin.
 */
const REJECTED_WITHIN_MS = 120_000;
const DELIVERED_WITHIN_MS = 5_000;

/** A server of the test's own (tests here run side by side), closed and removed when the test ends. */
async function startStrictPlatform(
  engine: 'sqlite' | 'postgres',
  onTestFinished: (cleanup: () => Promise<void>) => void,
): Promise<PlatformServer> {
  const database = await testDatabase(engine).create();
  const platform = await startPlatformServer(database);
  onTestFinished(async () => {
    await platform.close();
    await database.cleanup();
  });
  // A strict platform: a task id it never assigned answers 404.
  await platform.emulator.settings({ unknownTasks: 'reject' });
  return platform;
}

/** A real worker on a task the platform assigned: one update saved every second until `stop` says so. */
async function workSteadily(platform: PlatformServer, companyUuid: string, stop: () => boolean) {
  const context = newContext({ wxCompanyUuid: companyUuid });
  await platform.emulator.assign(context.wxAssignedTaskUuid, { companyUuid });
  const { token } = await requestSession(platform.server.url, context);
  if (!token) throw new Error('the real task got no session');
  let saves = 0;
  const done = (async () => {
    while (!stop()) {
      const path = saves % 2 === 0 ? '/api/task/steps/welcome' : '/api/task/restart';
      const answer = await callFrom('127.0.0.1', `${platform.server.url}${path}`, { body: saves % 2 === 0 ? { data: {} } : {}, token });
      if (answer.status !== 200) throw new Error(`the real task's save answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      saves += 1;
      await sleep(1_000);
    }
  })();
  return { assignedTaskUuid: context.wxAssignedTaskUuid, done, saves: () => saves };
}

/** Every update of a task: its state, its tries, and how long it took from its save to its delivery. */
async function deliveriesOf(platform: PlatformServer, assignedTaskUuid: string) {
  const task = await findTaskByAssignedTaskUuid(platform.server.store.db, assignedTaskUuid);
  const updates = await listUpdatesForTask(platform.server.store.db, task!.id);
  return updates.map((update) => ({
    state: update.state,
    attempts: update.attempts,
    tookMs: update.deliveredAt === null ? null : update.deliveredAt - update.createdAt,
  }));
}

describe.concurrent.each(['sqlite', 'postgres'] as const)('invented tasks on %s', (engine) => {
  it(
    'rejects 30 invented tasks from one address and 30 from 30 addresses, each within 120 s in at most 6 requests, ' +
      'while a real task saving every second is delivered within 5 s and the circuit never opens',
    async ({ expect, onTestFinished }) => {
      const platform = await startStrictPlatform(engine, onTestFinished);
      const company = randomUUID();
      let attackOver = false;
      const worker = await workSteadily(platform, company, () => attackOver);
      // The real task's first update makes the credential's work evident before the attack starts.
      await expect.poll(() => platform.requestsFor(worker.assignedTaskUuid), { timeout: 10_000 }).toContain(200);

      const addresses = [...Array<string>(30).fill('127.0.0.2'), ...Array.from({ length: 30 }, (_, index) => `127.0.1.${index + 1}`)];
      const openedAt = performance.now();
      const invented = await Promise.all(
        addresses.map(async (address) => {
          const context = newContext({ wxCompanyUuid: company });
          const session = await requestSession(platform.server.url, context, { from: address });
          expect(session.status).toBe(200);
          return { address, assignedTaskUuid: context.wxAssignedTaskUuid, token: session.token! };
        }),
      );

      const { db } = platform.server.store;
      const rejectedAfter = await Promise.all(
        invented.map(async ({ assignedTaskUuid }) => {
          for (;;) {
            const task = await findTaskByAssignedTaskUuid(db, assignedTaskUuid);
            if (task?.rejectedAt != null) return performance.now() - openedAt;
            if (performance.now() - openedAt > REJECTED_WITHIN_MS + 10_000) return Number.POSITIVE_INFINITY;
            await sleep(500);
          }
        }),
      );
      attackOver = true;
      await worker.done;

      expect(Math.max(...rejectedAfter)).toBeLessThanOrEqual(REJECTED_WITHIN_MS);
      for (const { address, token } of invented) {
        const answer = await callFrom(address, `${platform.server.url}/api/task`, { token });
        expect([answer.status, (answer.body as { error: { code: string } }).error.code]).toEqual([410, 'task_rejected']);
      }
      for (const { assignedTaskUuid } of invented) {
        const statuses = await platform.requestsFor(assignedTaskUuid);
        expect(statuses.length).toBeLessThanOrEqual(6);
        expect(new Set(statuses)).toEqual(new Set([404]));
      }
      await expect.poll(() => platform.requestsFor(worker.assignedTaskUuid), { timeout: 10_000 }).toHaveLength(worker.saves() + 1);
      const deliveries = await deliveriesOf(platform, worker.assignedTaskUuid);
      expect(deliveries.length).toBeGreaterThan(10);
      for (const delivery of deliveries) {
        expect(delivery).toMatchObject({ state: 'delivered', attempts: 0 });
        expect(delivery.tookMs).toBeLessThanOrEqual(DELIVERED_WITHIN_MS);
      }
      expect(circuitOpenings(platform.log)).toEqual([]);
    },
    REJECTED_WITHIN_MS + 60_000,
  );

  it('holds everything when the platform refuses every task, rejects nothing, and delivers all once it accepts again', async ({
    expect,
    onTestFinished,
  }) => {
    const platform = await startStrictPlatform(engine, onTestFinished);
    const company = randomUUID();
    let refusalOver = false;
    const worker = await workSteadily(platform, company, () => refusalOver);
    await expect.poll(() => platform.requestsFor(worker.assignedTaskUuid), { timeout: 10_000 }).toContain(200);

    // The role loses the partner-task permission (docs/platform.md#permissions): every update answers 403, known tasks and new ones.
    await platform.emulator.settings({ partnerTaskPermission: false });
    const newcomers = [];
    for (let index = 0; index < 3; index += 1) {
      const context = newContext({ wxCompanyUuid: company });
      await platform.emulator.assign(context.wxAssignedTaskUuid, { companyUuid: company });
      const session = await requestSession(platform.server.url, context, { from: `127.0.2.${index + 1}` });
      expect(session.status).toBe(200);
      newcomers.push(context.wxAssignedTaskUuid);
      await sleep(3_000);
    }
    await expect.poll(() => circuitOpenings(platform.log).length, { timeout: 30_000 }).toBeGreaterThan(0);
    // Longer than the whole grace of a task's own refusals (75 s would be needed): nothing moves toward rejection.
    await sleep(20_000);
    refusalOver = true;
    await worker.done;
    await platform.emulator.settings({ partnerTaskPermission: true });

    const { db } = platform.server.store;
    for (const assignedTaskUuid of [worker.assignedTaskUuid, ...newcomers]) {
      const task = await findTaskByAssignedTaskUuid(db, assignedTaskUuid);
      expect(task?.rejectedAt).toBeNull();
      await expect
        .poll(async () => new Set((await listUpdatesForTask(db, task!.id)).map((update) => update.state)), { timeout: 30_000 })
        .toEqual(new Set(['delivered']));
    }
    expect(await db.selectFrom('tasks').select('id').where('rejected_at', 'is not', null).execute()).toEqual([]);
  }, 120_000);
});
