import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'vitest';
import { confirmTasks, insertTask } from '../../server/store/tasks.repository';
import { callFrom, circuitOpenings, contextOf, openSessionFrom, serverDatabase, startPlatformServer } from '../helpers/platform-server';

const HOUR_MS = 60 * 60_000;

describe.concurrent.each(['sqlite', 'postgres'] as const)('a quiet deployment on %s', (engine) => {
  it(
    'rejects the one task the platform refuses within 90 s in at most 6 requests, its last success an hour old ' +
      'and from before a restart',
    async ({ expect, onTestFinished }) => {
      const database = serverDatabase(engine);
      // Undone last first: the server closes before its database goes.
      const undo: Array<() => Promise<void>> = [() => database.remove()];
      onTestFinished(async () => {
        for (const step of undo.reverse()) await step();
      });
      const company = randomUUID();
      // The evidence that the credential works: a task the platform accepted an hour ago, before this server started.
      const before = await database.open();
      const known = await insertTask(before.db, { ...taskOf(company), now: Date.now() - HOUR_MS });
      await confirmTasks(before.db, [known.id], Date.now() - HOUR_MS);
      await before.close();

      const platform = await startPlatformServer(database);
      undo.push(() => platform.close());
      await platform.emulator.settings({ unknownTasks: 'reject' });
      const context = contextOf(company);
      const openedAt = performance.now();
      const { token } = await openSessionFrom('127.0.0.1', platform.server.url, context);
      let status = 200;
      while (status === 200 && performance.now() - openedAt < 100_000) {
        await sleep(1_000);
        status = (await callFrom('127.0.0.1', `${platform.server.url}/api/task`, { token: token! })).status;
      }
      expect(status).toBe(410);
      expect(performance.now() - openedAt).toBeLessThanOrEqual(90_000);
      const statuses = await platform.requestsFor(context.wxAssignedTaskUuid);
      expect(statuses.length).toBeLessThanOrEqual(6);
      expect(new Set(statuses)).toEqual(new Set([404]));
      expect(circuitOpenings(platform.log)).toEqual([]);
    },
    120_000,
  );
});

function taskOf(companyUuid: string) {
  const context = contextOf(companyUuid);
  return {
    assignedTaskUuid: context.wxAssignedTaskUuid,
    workerUuid: context.wxWorkerUuid,
    taskFlowUuid: context.wxTaskFlowUuid,
    companyUuid,
    workflowId: 'safety-training',
  };
}
