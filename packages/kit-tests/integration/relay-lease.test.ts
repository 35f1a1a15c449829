import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliveryLeaseMs } from '@partner-task-kit/server/delivery/delivery-lease';
import { createOutboxRelay, type OutboxRelay } from '@partner-task-kit/server/delivery/outbox-relay';
import { EMULATOR_CREDENTIAL, type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { listUpdatesForTask } from '@partner-task-kit/server/store/outbox-status.repository';
import { createWorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { control } from '../helpers/emulator-control';
import { taskServices } from '../helpers/task-services';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import { ManualClock } from '../helpers/manual-clock';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const TIMEOUT_MS = 2_000;

describe('the delivery lease', () => {
  it('outlasts the slowest delivery: token, update, then after a 401 token and update again', () => {
    expect(deliveryLeaseMs(TIMEOUT_MS, 0)).toBe(4 * TIMEOUT_MS);
    expect(deliveryLeaseMs(10_000)).toBeGreaterThan(4 * 10_000);
  });
});

describe.each(testDatabases)('two relays on one $name outbox, a slow platform and a token expiring mid-flight', (database) => {
  let db: TestDatabase;
  let emulator: RunningEmulator;
  const relays: OutboxRelay[] = [];

  beforeEach(async () => {
    db = await database.open();
    emulator = await startEmulator();
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
    await emulator.close();
    await db.cleanup();
  });

  it('never sends the same row from both while the first is still delivering it', async () => {
    // Both relays read one clock, moved by hand: time can pass as if each call took nearly its whole timeout.
    const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
    const store = db.store;
    const other = database.name === 'postgres' ? await db.openStore() : store;
    const url = emulator.url;
    const relay = (storeOf: typeof store, workerId: string) => {
      const client = createWorkforceClient({
        upstream: { authUrl: url, baseUrl: url, taskBaseUrl: url, credential: { ...EMULATOR_CREDENTIAL }, timeoutMs: TIMEOUT_MS },
        clock,
      });
      const created = createOutboxRelay({
        store: storeOf,
        client,
        clock,
        log: silent,
        leaseMs: deliveryLeaseMs(TIMEOUT_MS),
        pollMs: 20,
        workerId,
      });
      relays.push(created);
      return created;
    };
    const emulatorControl = control(url);
    // The update's first send finds its token expired (401), then the resend is held back by the platform.
    await emulatorControl.fault({ endpoint: 'partnerTask', kind: 'expireToken' });
    await emulatorControl.fault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 800 });
    const task = await taskServices(store, { clock }).open();

    relay(store, 'relay-a').start();
    // relay-a is in the resend, held by the delay: the token was renewed after the 401.
    await expect.poll(async () => (await emulatorControl.requests('partnerTask')).length, { timeout: 15_000 }).toBe(2);
    // Three calls' worth of time passes on the relays' clock: past an old lease of one timeout plus a margin.
    clock.advance(3 * TIMEOUT_MS);
    relay(other, 'relay-b').start();
    await expect
      .poll(async () => (await emulatorControl.requests('partnerTask')).map((request) => request.status), { timeout: 15_000 })
      .toEqual([401, 200]);
    // Delivered once, by relay-a, and applied once: nothing was sent twice.
    await expect
      .poll(async () => (await listUpdatesForTask(store.db, task.id)).map((update) => update.state), { timeout: 15_000 })
      .toEqual(['delivered']);
    expect((await emulatorControl.requests('partnerTask')).length).toBe(2);
  }, 60_000);
});
