import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock';
import { createOutboxRelay, type OutboxRelay } from '../../server/delivery/outbox-relay';
import { defaultRetryPolicy } from '../../server/delivery/retry-policy';
import { EMULATOR_CREDENTIAL } from '../../server/emulator/emulator-credential';
import { startEmulator, type RunningEmulator } from '../../server/emulator/start-emulator';
import { nextDueAt, outboxStats } from '../../server/store/outbox.repository';
import { createWorkforceClient } from '../../server/upstream/workforce-client';
import { control } from '../helpers/emulator-control';
import { createTask, enqueue } from '../helpers/outbox-fixtures';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe.each(testDatabases)('after an outage, on $name', (database) => {
  let db: TestDatabase;
  let emulator: RunningEmulator;
  let relay: OutboxRelay | undefined;

  beforeEach(async () => {
    db = await database.open();
    emulator = await startEmulator();
  });

  afterEach(async () => {
    await relay?.stop();
    await emulator.close();
    await db.cleanup();
  });

  it('delivers the whole backlog as soon as the platform answers, not as each update backs off', async () => {
    // The relay's clock moves by hand: a 90-second outage passes in moments, and stands still once the platform is back.
    const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
    const store = db.store;
    const url = emulator.url;
    const emulatorControl = control(url);
    await emulatorControl.fault({ endpoint: 'partnerTask', kind: 'status', status: 503, count: 1_000_000 });
    const tasks = await Promise.all(Array.from({ length: 50 }, () => createTask(store, clock)));
    for (const task of tasks) await enqueue(store, clock, task, 0, 'ready');

    const client = createWorkforceClient({
      upstream: { authUrl: url, baseUrl: url, taskBaseUrl: url, credential: { ...EMULATOR_CREDENTIAL }, timeoutMs: 2_000 },
      clock,
    });
    relay = createOutboxRelay({ store, client, clock, log: silent, policy: defaultRetryPolicy, concurrency: 32, pollMs: 20 });
    relay.start();
    const failedSends = async () => (await emulatorControl.requests('partnerTask')).filter((request) => request.status === 503).length;

    // The outage: every update fails, and fails again each time its backoff comes round, for 90 s of the relay's time.
    for (let second = 0; second < 90; second += 15) {
      const before = await failedSends();
      clock.advance(15_000);
      relay.wake();
      await expect.poll(failedSends, { timeout: 5_000 }).toBeGreaterThan(before);
    }
    await expect.poll(async () => (await outboxStats(store.db, clock.now())).pending).toBe(50);
    // Every failed attempt of the outage is settled (no row still leased) before the platform comes back.
    await expect
      .poll(async () => (await store.db.selectFrom('outbox').select('id').where('locked_by', 'is not', null).execute()).length, {
        timeout: 5_000,
      })
      .toBe(0);

    // The platform is back. The clock moves only to the first update's next try: that delivery shows the way.
    await emulatorControl.clearFaults();
    const firstDue = await nextDueAt(store.db);
    expect(firstDue).not.toBeNull();
    const latest = (
      await store.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.max('next_attempt_at').as('latest'))
        .executeTakeFirst()
    )?.latest;
    // Without recovery, the last update would wait this long on its own backoff.
    expect(Number(latest) - firstDue!).toBeGreaterThan(1_000);
    clock.set(firstDue!);
    const drainStarted = performance.now();
    relay.wake();
    await expect.poll(async () => (await outboxStats(store.db, clock.now())).pending, { timeout: 10_000 }).toBe(0);
    const drainMs = performance.now() - drainStarted;
    expect(clock.now()).toBe(firstDue);
    expect(drainMs).toBeLessThan(20_000);
  }, 60_000);
});
