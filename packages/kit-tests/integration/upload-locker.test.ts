import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseUploadLocker } from '@partner-task-kit/server/uploads/upload-locker';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import { ManualClock } from '../helpers/manual-clock';
import { readUntil } from '../helpers/read-until';

const timings = { leaseMs: 10_000, renewMs: 50, pollMs: 20, waitMs: 3_000 };
const never = new AbortController().signal;

/** tus's locks in the database (packages/server/src/uploads/upload-locker.ts), as two instances on one database take them. */
describe.each(testDatabases)('upload locks on $name', (engine) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await engine.open();
  });
  afterEach(async () => {
    await database.cleanup();
  });

  it('makes a second request wait, asks the first to let go, and goes on once it has', async () => {
    const clock = new ManualClock();
    const first = databaseUploadLocker({ store: database.store, clock, timings }).newLock('upload-1');
    const second = databaseUploadLocker({ store: database.store, clock, timings }).newLock('upload-1');
    let asked = 0;
    await first.lock(never, () => {
      asked += 1;
    });
    let secondHasIt = false;
    const waiting = second.lock(never, () => undefined).then(() => (secondHasIt = true));
    expect(await readUntil(() => asked > 0, Boolean, { timeoutMs: 5_000, intervalMs: 10 })).toBe(true);
    expect(secondHasIt).toBe(false);
    await first.unlock();
    await waiting;
    expect(secondHasIt).toBe(true);
    // Another upload is not held up by this one.
    const other = databaseUploadLocker({ store: database.store, clock, timings }).newLock('upload-2');
    await other.lock(never, () => undefined);
    await Promise.all([second.unlock(), other.unlock()]);
    expect(await database.store.db.selectFrom('upload_locks').selectAll().execute()).toEqual([]);
  });

  it('frees the lock of an instance that stopped renewing once its lease ran out, and tells it it lost it', async () => {
    const stalledClock = new ManualClock(Date.parse('2026-03-01T09:00:00.000Z'));
    const laterClock = new ManualClock(stalledClock.now() + timings.leaseMs + 1);
    const stalled = databaseUploadLocker({ store: database.store, clock: stalledClock, timings }).newLock('upload-1');
    let lost = false;
    await stalled.lock(never, () => {
      lost = true;
    });
    // Its renewals write leases that end by its own clock: from the later instance's, they are over.
    const later = databaseUploadLocker({ store: database.store, clock: laterClock, timings }).newLock('upload-1');
    await later.lock(never, () => undefined);
    expect(await readUntil(() => lost, Boolean, { timeoutMs: 5_000, intervalMs: 10 })).toBe(true);
    await stalled.unlock();
    // The stalled one's unlock leaves the later one's lock alone.
    expect(await database.store.db.selectFrom('upload_locks').select('upload_id').execute()).toEqual([{ upload_id: 'upload-1' }]);
    await later.unlock();
  });

  it('gives up after its wait with 423 upload_busy, which tus clients retry, and at once when its request is gone', async () => {
    const clock = new ManualClock();
    const holder = databaseUploadLocker({ store: database.store, clock, timings }).newLock('upload-1');
    await holder.lock(never, () => undefined);
    const impatient = databaseUploadLocker({ store: database.store, clock, timings: { ...timings, waitMs: 200 } }).newLock('upload-1');
    const refusal = (await impatient.lock(never, () => undefined).catch((error: unknown) => error)) as {
      status_code: number;
      body: string;
    };
    expect(refusal.status_code).toBe(423);
    expect(JSON.parse(refusal.body)).toMatchObject({ error: { code: 'upload_busy' } });

    const gone = new AbortController();
    const started = Date.now();
    const waiting = databaseUploadLocker({ store: database.store, clock, timings })
      .newLock('upload-1')
      .lock(gone.signal, () => undefined)
      .catch((error: unknown) => error);
    setTimeout(() => gone.abort(), 100);
    expect(await waiting).toMatchObject({ status_code: 423 });
    expect(Date.now() - started).toBeLessThan(timings.waitMs);
    await holder.unlock();
  });

  it('answers 503 database_unreachable when the database does not answer, which tus clients retry', async () => {
    const closed = await database.openStore();
    await closed.close();
    const lock = databaseUploadLocker({ store: closed, clock: new ManualClock(), timings }).newLock('upload-1');
    const refusal = (await lock.lock(never, () => undefined).catch((error: unknown) => error)) as { status_code: number; body: string };
    expect(refusal.status_code).toBe(503);
    expect(JSON.parse(refusal.body)).toMatchObject({ error: { code: 'database_unreachable' } });
    // An unlock after work done never turns it into an error: the row, if any, waits for its lease.
    await expect(lock.unlock()).resolves.toBeUndefined();
  });
});
