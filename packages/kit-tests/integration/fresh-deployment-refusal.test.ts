import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '@partner-task-kit/server/clock';
import { createOutboxRelay, type OutboxRelay } from '@partner-task-kit/server/delivery/outbox-relay';
import { defaultRetryPolicy, type RetryPolicy } from '@partner-task-kit/server/delivery/retry-policy';
import { EMULATOR_CREDENTIAL, type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import type { Store } from '@partner-task-kit/server/store/store';
import { createWorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { control } from '../helpers/emulator-control';
import { taskServices, type ServiceTask } from '../helpers/task-services';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';

/**
 * The production policy's shape (six tries: a first and five waits), its waits shortened but the first: long enough
 * for the other task's update to be accepted between the refused task's first and second tries, on a busy machine.
 */
const policy: RetryPolicy = {
  ...defaultRetryPolicy,
  baseDelayMs: 5,
  maxDelayMs: 50,
  probeMaxMs: 50,
  refusalDelaysMs: [3_000, 5, 5, 5, 5],
};
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe.each(testDatabases)('a task the platform refuses on a fresh deployment, on $name', (database) => {
  let db: TestDatabase;
  let store: Store;
  let emulator: RunningEmulator;
  let relay: OutboxRelay | undefined;

  beforeEach(async () => {
    db = await database.open();
    store = db.store;
    emulator = await startEmulator();
  });

  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    await emulator.close();
    await db.cleanup();
  });

  it(
    "costs 6 update requests when its first refusal comes before the credential's first accepted update, " +
      'as on a deployment that delivered before (docs/operations.md#the-platform-refuses-one-task)',
    async () => {
      const emulatorControl = control(emulator.url);
      // The platform knows only the tasks assigned on it: the invented one is answered 404 over HTTP.
      await emulatorControl.settings({ unknownTasks: 'reject' });
      const url = emulator.url;
      const client = createWorkforceClient({
        upstream: { authUrl: url, baseUrl: url, taskBaseUrl: url, credential: { ...EMULATOR_CREDENTIAL }, timeoutMs: 2000 },
        clock: systemClock,
      });
      const running = createOutboxRelay({ store, client, clock: systemClock, log: silent, policy, pollMs: 60_000 });
      relay = running;
      const services = taskServices(store, { onUpdateEnqueued: () => running.wake() });
      running.start();

      // Nothing has ever been accepted for this credential when the invented task's first update is refused.
      const invented = await services.open();
      const sentFor = async (task: ServiceTask) =>
        (await emulatorControl.requests('partnerTask')).filter((request) => request.path.endsWith(task.assignedTaskUuid));
      await expect.poll(async () => (await sentFor(invented)).length, { timeout: 15_000 }).toBeGreaterThan(0);

      // Then a task the platform knows: its update is accepted, and vouches for the credential.
      const knownUuid = randomUUID();
      await emulatorControl.assign(knownUuid);
      const known = await services.open({ wxAssignedTaskUuid: knownUuid });
      await expect.poll(async () => (await sentFor(known)).map((request) => request.status), { timeout: 15_000 }).toEqual([200]);
      // The premise: the refused task's first try came before the credential's first accepted update.
      const [firstRefusal] = await sentFor(invented);
      const [accepted] = await sentFor(known);
      expect(firstRefusal!.seq).toBeLessThan(accepted!.seq);

      const rejection = async () =>
        store.db.selectFrom('tasks').select(['rejected_at', 'rejected_reason']).where('id', '=', invented.id).executeTakeFirstOrThrow();
      await expect.poll(async () => (await rejection()).rejected_at, { timeout: 20_000 }).not.toBeNull();
      expect((await sentFor(invented)).map((request) => request.status)).toEqual([404, 404, 404, 404, 404, 404]);
      expect((await rejection()).rejected_reason).toMatch(/refused the task 6 times \(HTTP 404\)/);
      // Nothing more for it, however often the relay looks.
      running.wake();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await sentFor(invented)).toHaveLength(6);
    },
    60_000,
  );
});
