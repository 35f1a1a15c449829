import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'vitest';
import { confirmTasks } from '@partner-task-kit/server/store/tasks.repository';
import { callFrom, circuitOpenings, startPlatformServer, type PlatformServer } from '../helpers/platform-server';
import { testDatabase } from '../helpers/test-databases';
import { newContext, requestSession } from '../helpers/task-app';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices } from '../helpers/task-services';
import { deliverEverything } from '../helpers/worker-answers';

const HOUR_MS = 60 * 60_000;

/**
 * How the platform refuses the task: 404, a task it does not know; 403, one it forbids to this credential (an
 * injected answer for this task only, more of them than the server may ever send, so an extra try would show).
 */
async function refuse(platform: PlatformServer, refusal: 404 | 403, assignedTaskUuid: string): Promise<void> {
  if (refusal === 404) await platform.emulator.settings({ unknownTasks: 'reject' });
  else await platform.emulator.fault({ endpoint: 'partnerTask', kind: 'status', status: 403, count: 100, assignedTaskUuid });
}

describe.concurrent.each([
  ['sqlite', 404],
  ['postgres', 404],
  ['sqlite', 403],
  ['postgres', 403],
] as const)('a quiet deployment on %s, the platform answering %i', (engine, refusal) => {
  it(
    'rejects the one task the platform refuses within 90 s in 6 update requests, and the one token request of a ' +
      'server holding none, its last success an hour old and from before a restart',
    async ({ expect, onTestFinished }) => {
      const database = await testDatabase(engine).create();
      // Undone last first: the server closes before its database goes.
      const undo: Array<() => Promise<void>> = [() => database.cleanup()];
      onTestFinished(async () => {
        for (const step of undo.reverse()) await step();
      });
      const company = randomUUID();
      // The evidence that the credential works: a task the platform accepted an hour ago, before this server started.
      const before = await database.openStore();
      const anHourAgo = Date.now() - HOUR_MS;
      const known = await taskServices(before, { clock: new ManualClock(anHourAgo) }).open({ wxCompanyUuid: company });
      // Delivered and confirmed, as the relay settles an update the platform accepted.
      await deliverEverything(before, anHourAgo);
      await confirmTasks(before.db, [known.id], anHourAgo);
      await before.close();

      const platform = await startPlatformServer(database);
      undo.push(() => platform.close());
      const context = newContext({ wxCompanyUuid: company });
      await refuse(platform, refusal, context.wxAssignedTaskUuid);
      const openedAt = performance.now();
      const { token } = await requestSession(platform.server.url, context);
      let status = 200;
      while (status === 200 && performance.now() - openedAt < 100_000) {
        await sleep(1_000);
        status = (await callFrom('127.0.0.1', `${platform.server.url}/api/task`, { token: token! })).status;
      }
      expect(status).toBe(410);
      expect(performance.now() - openedAt).toBeLessThanOrEqual(90_000);
      // docs/operations.md#the-platform-refuses-one-task: six tries of the update, then nothing more for the task.
      const statuses = await platform.requestsFor(context.wxAssignedTaskUuid);
      expect(statuses).toHaveLength(6);
      expect(new Set(statuses)).toEqual(new Set([refusal]));
      // The rest of what the platform received: the token the first try needed, this server holding none yet (as
      // after an hour without deliveries), and nothing else.
      const received = await platform.emulator.requests();
      expect(received.filter((request) => request.endpoint === 'token')).toHaveLength(1);
      expect(received).toHaveLength(7);
      expect(circuitOpenings(platform.log)).toEqual([]);
    },
    120_000,
  );
});
