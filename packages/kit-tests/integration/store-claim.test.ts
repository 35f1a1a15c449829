import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreDb } from '@partner-task-kit/server/store/database-schema';
import {
  claimDeliverable,
  markDead,
  markManyDelivered,
  nextDueAt,
  putBackClaims,
  releaseLeases,
  scheduleRetry,
} from '@partner-task-kit/server/store/outbox.repository';
import {
  listDead,
  listUpdatesForTask,
  outboxStatsByLane,
  retryAllDead,
  retryDead,
} from '@partner-task-kit/server/store/outbox-status.repository';
import type { OutboxUpdate } from '@partner-task-kit/server/store/outbox.table';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices, type TaskServices } from '../helpers/task-services';
import { testDatabases } from '../helpers/test-databases';
import type { TestDatabase } from '../helpers/test-databases';

const t0 = 1_700_000_000_000;
const lease = { leaseMs: 30_000, limit: 10, workerId: 'relay-a' };

const ids = (rows: OutboxUpdate[]) => rows.map((row) => row.id);

describe.each(testDatabases)('claiming outbox rows on $name', (engine) => {
  let t: TestDatabase;
  let db: StoreDb;
  let services: TaskServices;
  const clock = new ManualClock(t0);
  beforeEach(async () => {
    t = await engine.open();
    db = t.store.db;
    services = taskServices(t.store, { clock });
  });
  afterEach(() => t.cleanup());

  /** A task opened at `now` with `count` updates written, its rows in the order written. */
  async function addTaskWithUpdates(count: number, now = t0): Promise<OutboxUpdate[]> {
    clock.set(now);
    const task = await services.openWithUpdates(count);
    return listUpdatesForTask(db, task.id);
  }

  it('gives only the oldest pending row of a task and leases it', async () => {
    const [first] = await addTaskWithUpdates(3);
    const claimed = await claimDeliverable(db, { ...lease, now: t0 });
    expect(ids(claimed)).toEqual([first!.id]);
    expect(claimed[0]).toMatchObject({ lockedUntil: t0 + 30_000, lockedBy: 'relay-a', state: 'pending' });
    expect(await claimDeliverable(db, { ...lease, now: t0 + 1, workerId: 'relay-b' })).toEqual([]);
  });

  it("makes the task's next row claimable once the oldest is delivered", async () => {
    const [first, second] = await addTaskWithUpdates(2);
    await claimDeliverable(db, { ...lease, now: t0 });
    expect(await markManyDelivered(db, [first!.id], { now: t0 + 10, workerId: 'relay-a' })).toHaveLength(1);
    expect(ids(await claimDeliverable(db, { ...lease, now: t0 + 11 }))).toEqual([second!.id]);
    const [delivered] = await listUpdatesForTask(db, first!.taskId);
    expect(delivered).toMatchObject({ state: 'delivered', deliveredAt: t0 + 10, lockedUntil: null });
  });

  it("skips a row that is not due yet, and keeps the task's later rows behind it", async () => {
    const [first, second] = await addTaskWithUpdates(2);
    await claimDeliverable(db, { ...lease, now: t0 });
    expect(await scheduleRetry(db, first!.id, { workerId: 'relay-a', nextAttemptAt: t0 + 5_000, error: 'HTTP 503' })).toBe(true);
    expect(await claimDeliverable(db, { ...lease, now: t0 + 4_999 })).toEqual([]);
    const retried = await claimDeliverable(db, { ...lease, now: t0 + 5_000 });
    expect(retried).toEqual([expect.objectContaining({ id: first!.id, attempts: 1, lastError: 'HTTP 503' })]);
    expect(ids(retried)).not.toContain(second!.id);
  });

  it('reclaims a row whose lease expired, and the first holder can no longer settle it', async () => {
    const [first] = await addTaskWithUpdates(1);
    await claimDeliverable(db, { ...lease, now: t0 });
    expect(await claimDeliverable(db, { ...lease, now: t0 + 30_000, workerId: 'relay-b' })).toEqual([]);
    const reclaimed = await claimDeliverable(db, { ...lease, now: t0 + 30_001, workerId: 'relay-b' });
    expect(reclaimed).toEqual([expect.objectContaining({ id: first!.id, lockedBy: 'relay-b' })]);
    expect(await markManyDelivered(db, [first!.id], { now: t0 + 30_002, workerId: 'relay-a' })).toHaveLength(0);
    expect(await scheduleRetry(db, first!.id, { workerId: 'relay-a', nextAttemptAt: t0, error: 'late' })).toBe(false);
    expect(await markDead(db, first!.id, { workerId: 'relay-a', now: t0, reason: 'late' })).toBe(false);
    expect(await markManyDelivered(db, [first!.id], { now: t0 + 30_003, workerId: 'relay-b' })).toHaveLength(1);
  });

  it('gives at most one row per task per round, oldest first, across interleaved tasks', async () => {
    const tasks = [await addTaskWithUpdates(3), await addTaskWithUpdates(3), await addTaskWithUpdates(3)];
    const rounds: number[][] = [];
    for (let round = 0; round < 4; round += 1) {
      const claimed = await claimDeliverable(db, { ...lease, now: t0 + round });
      rounds.push(ids(claimed));
      for (const row of claimed) await markManyDelivered(db, [row.id], { now: t0 + round, workerId: 'relay-a' });
    }
    expect(rounds).toEqual([0, 1, 2].map((i) => tasks.map((rows) => rows[i]!.id)).concat([[]]));
  });

  it('honours the limit, oldest rows first', async () => {
    const tasks = [await addTaskWithUpdates(1), await addTaskWithUpdates(1), await addTaskWithUpdates(1)];
    expect(ids(await claimDeliverable(db, { ...lease, limit: 2, now: t0 }))).toEqual([tasks[0]![0]!.id, tasks[1]![0]!.id]);
  });

  it('does not let a dead row block its task, and retryDead puts it back in line', async () => {
    const [first, second] = await addTaskWithUpdates(2);
    await claimDeliverable(db, { ...lease, now: t0 });
    expect(await markDead(db, first!.id, { workerId: 'relay-a', now: t0 + 1, reason: 'HTTP 422: bad label' })).toBe(true);
    expect(ids(await claimDeliverable(db, { ...lease, now: t0 + 2 }))).toEqual([second!.id]);
    await markManyDelivered(db, [second!.id], { now: t0 + 3, workerId: 'relay-a' });

    expect(await listDead(db, { limit: 10 })).toEqual([
      expect.objectContaining({ id: first!.id, state: 'dead', deadAt: t0 + 1, deadReason: 'HTTP 422: bad label', attempts: 1 }),
    ]);
    expect(await retryDead(db, first!.id, t0 + 100)).toBe(true);
    expect(await retryDead(db, first!.id, t0 + 100)).toBe(false);
    expect(await claimDeliverable(db, { ...lease, now: t0 + 100 })).toEqual([
      expect.objectContaining({ id: first!.id, attempts: 0, deadAt: null, deadReason: null, lastError: 'HTTP 422: bad label' }),
    ]);
  });

  it('retryAllDead revives every dead row, due now', async () => {
    const rows = [...(await addTaskWithUpdates(1)), ...(await addTaskWithUpdates(1))];
    await claimDeliverable(db, { ...lease, now: t0 });
    for (const row of rows) await markDead(db, row.id, { workerId: 'relay-a', now: t0, reason: 'HTTP 400' });
    expect(await retryAllDead(db, t0 + 50)).toBe(2);
    expect(await listDead(db)).toEqual([]);
    expect(ids(await claimDeliverable(db, { ...lease, now: t0 + 50 }))).toEqual(ids(rows));
  });

  it("releaseLeases frees only this worker's rows for immediate reclaim", async () => {
    const [a] = await addTaskWithUpdates(1);
    await claimDeliverable(db, { ...lease, now: t0 });
    const [b] = await addTaskWithUpdates(1);
    expect(ids(await claimDeliverable(db, { ...lease, now: t0, workerId: 'relay-b' }))).toEqual([b!.id]);
    expect(await releaseLeases(db, 'relay-a')).toBe(1);
    expect(ids(await claimDeliverable(db, { ...lease, now: t0 + 1, workerId: 'relay-c' }))).toEqual([a!.id]);
    // relay-b's lease is untouched: its row is neither freed nor taken by relay-c.
    const [stillLeased] = await listUpdatesForTask(db, b!.taskId);
    expect(stillLeased).toMatchObject({ id: b!.id, lockedBy: 'relay-b', lockedUntil: t0 + lease.leaseMs });
  });

  it("putBackClaims puts back only this worker's claims among the ids, unsent and with no attempt counted", async () => {
    const [a] = await addTaskWithUpdates(1);
    const [b] = await addTaskWithUpdates(1);
    await claimDeliverable(db, { ...lease, now: t0 });
    const [c] = await addTaskWithUpdates(1);
    await claimDeliverable(db, { ...lease, now: t0, workerId: 'relay-b' });
    expect(await putBackClaims(db, [a!.id, c!.id], 'relay-a')).toBe(1);
    expect(await putBackClaims(db, [], 'relay-a')).toBe(0);
    expect(await listUpdatesForTask(db, a!.taskId)).toEqual([expect.objectContaining({ attempts: 0, lockedBy: null, lockedUntil: null })]);
    expect(ids(await claimDeliverable(db, { ...lease, now: t0 + 1, workerId: 'relay-c' }))).toEqual([a!.id]);
    // b stays relay-a's, c relay-b's.
    expect((await listUpdatesForTask(db, b!.taskId))[0]).toMatchObject({ lockedBy: 'relay-a' });
    expect((await listUpdatesForTask(db, c!.taskId))[0]).toMatchObject({ lockedBy: 'relay-b' });
  });

  it('reports stats: pending count and age, delivered, dead', async () => {
    expect((await outboxStatsByLane(db, t0)).platform).toEqual({ pending: 0, oldestPendingAgeMs: 0, delivered: 0, dead: 0 });
    const [first, second] = await addTaskWithUpdates(2, t0);
    await addTaskWithUpdates(2, t0 + 1_000);
    await claimDeliverable(db, { ...lease, now: t0 + 1_000 });
    await markManyDelivered(db, [first!.id], { now: t0 + 1_001, workerId: 'relay-a' });
    await claimDeliverable(db, { ...lease, now: t0 + 1_002 });
    await markDead(db, second!.id, { workerId: 'relay-a', now: t0 + 1_003, reason: 'HTTP 400' });
    expect((await outboxStatsByLane(db, t0 + 5_000)).platform).toEqual({ pending: 2, oldestPendingAgeMs: 4_000, delivered: 1, dead: 1 });
  });

  it('nextDueAt is the earliest time a claim could succeed', async () => {
    expect(await nextDueAt(db)).toBeNull();
    const [first] = await addTaskWithUpdates(2, t0);
    expect(await nextDueAt(db)).toBe(t0);
    await claimDeliverable(db, { ...lease, now: t0 });
    // Leased: claimable again only after the lease; the row queued behind it does not count.
    expect(await nextDueAt(db)).toBe(t0 + 30_001);
    await scheduleRetry(db, first!.id, { workerId: 'relay-a', nextAttemptAt: t0 + 8_000, error: 'HTTP 429' });
    expect(await nextDueAt(db)).toBe(t0 + 8_000);
    await addTaskWithUpdates(1, t0 + 100);
    expect(await nextDueAt(db)).toBe(t0 + 100);
  });
});
