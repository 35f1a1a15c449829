import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutboxRelay, type OutboxRelay } from '@partner-task-kit/server/delivery/outbox-relay';
import { defaultRetryPolicy } from '@partner-task-kit/server/delivery/retry-policy';
import { EMULATOR_CREDENTIAL, type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { outboxStatsByLane } from '@partner-task-kit/server/store/outbox-status.repository';
import { createWorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { control } from '../helpers/emulator-control';
import { taskServices } from '../helpers/task-services';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import { ManualClock } from '../helpers/manual-clock';

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

  it('probes once per interval while the platform is away and drains the backlog within seconds of its return', async () => {
    // The relay's clock moves by hand: a 90-second outage passes in moments, and stands still once the platform is back.
    const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
    const store = db.store;
    const url = emulator.url;
    const emulatorControl = control(url);
    await emulatorControl.fault({ endpoint: 'partnerTask', kind: 'status', status: 503, count: 1_000_000 });
    const services = taskServices(store, { clock });
    await Promise.all(Array.from({ length: 50 }, () => services.open()));

    const client = createWorkforceClient({
      upstream: { authUrl: url, baseUrl: url, taskBaseUrl: url, credential: { ...EMULATOR_CREDENTIAL }, timeoutMs: 2_000 },
      clock,
    });
    relay = createOutboxRelay({ store, client, clock, log: silent, policy: defaultRetryPolicy, concurrency: 32, pollMs: 20 });
    relay.start();
    const failedSends = async () => (await emulatorControl.requests('partnerTask')).filter((request) => request.status === 503).length;

    // The outage: the first failures open the circuit, then one probe goes per probe interval (1 s doubling to 10 s),
    // so each 15 s of the relay's time costs the platform exactly one request instead of one per waiting update.
    // The waits below are for real time, which a busy machine stretches: long, as what they pin is counted on the
    // relay's clock, which only this test moves.
    await expect.poll(failedSends, { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
    await expect
      .poll(async () => (await store.db.selectFrom('outbox').select('id').where('locked_by', 'is not', null).execute()).length)
      .toBe(0);
    for (let second = 0; second < 90; second += 15) {
      const before = await failedSends();
      clock.advance(15_000);
      relay.wake();
      await expect.poll(failedSends, { timeout: 30_000 }).toBe(before + 1);
      // No second probe while the relay's clock stands still.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await failedSends()).toBe(before + 1);
    }
    expect((await outboxStatsByLane(store.db, clock.now())).platform.pending).toBe(50);
    await expect
      .poll(async () => (await store.db.selectFrom('outbox').select('id').where('locked_by', 'is not', null).execute()).length)
      .toBe(0);

    // The platform is back just after a failed probe: the worst moment. The relay's clock moves on by one probe
    // interval at its longest, then stands still: the next probe is due by then and gets through, and the drain itself
    // must not wait for any backoff (were it to, the clock standing still would keep the backlog pending).
    // One step of the clock, not a second at a time with a pause between: a relay slowed down by a busy machine would
    // then see a later clock than the one it probed at, and the test would measure the machine, not the relay.
    await emulatorControl.clearFaults();
    const accepted = async () =>
      (await emulatorControl.requests('partnerTask')).filter((request) => request.status !== null && request.status < 300).length;
    expect(await accepted()).toBe(0);
    clock.advance(defaultRetryPolicy.probeMaxMs);
    relay.wake();
    await expect.poll(accepted, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await outboxStatsByLane(store.db, clock.now())).platform.pending, { timeout: 30_000 }).toBe(0);
  }, 120_000);
});
