import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueUpdate } from '@partner-task-kit/server/store/outbox-enqueue.repository';
import { listUpdatesForTask } from '@partner-task-kit/server/store/outbox-status.repository';
import type { PartnerTaskUpdateRecord } from '@partner-task-kit/workflow/contract/partner-task-update';
import type { StoreDb } from '@partner-task-kit/server/store/database-schema';
import { findTaskById, insertTask, saveLockedTask } from '@partner-task-kit/server/store/tasks.repository';
import type { Task } from '@partner-task-kit/server/store/tasks.table';
import { testDatabases } from '../helpers/test-databases';
import type { TestDatabase } from '../helpers/test-databases';

const t0 = Date.UTC(2026, 10, 22, 10, 0, 0);

function addTask(db: StoreDb): Promise<Task> {
  return insertTask(db, {
    assignedTaskUuid: randomUUID(),
    workerUuid: randomUUID(),
    taskFlowUuid: randomUUID(),
    companyUuid: randomUUID(),
    workflowId: 'onboarding-quiz',
    now: t0,
  });
}

function enqueue(db: StoreDb, task: Task, now: number, record: Partial<PartnerTaskUpdateRecord> = {}) {
  return db
    .transaction()
    .execute((trx) => enqueueUpdate(trx, { taskId: task.id, record: { taskStatus: 'inProgress', partnerId: task.id, ...record }, now }));
}

function strictlyIncreasing(values: number[]): boolean {
  return values.every((value, i) => i === 0 || value > values[i - 1]!);
}

describe.each(testDatabases)('enqueueing updates on $name', (engine) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await engine.open();
  });
  afterEach(() => t.cleanup());

  it('stores the full spec 2.6 record with sentAt as ISO 8601, pending and due now', async () => {
    const task = await addTask(t.store.db);
    const row = await enqueue(t.store.db, task, t0 + 5, { partnerStatus: { label: 'Step 1 of 3', color: 'neutral' } });
    expect(row).toMatchObject({
      taskId: task.id,
      assignedTaskUuid: task.assignedTaskUuid,
      sentAt: t0 + 5,
      state: 'pending',
      attempts: 0,
      nextAttemptAt: t0 + 5,
      lockedUntil: null,
      payload: {
        taskStatus: 'inProgress',
        sentAt: '2026-11-22T10:00:00.005Z',
        partnerId: task.id,
        partnerStatus: { label: 'Step 1 of 3', color: 'neutral' },
      },
    });
  });

  it('writes nothing when the caller transaction throws: neither the task change nor the outbox row', async () => {
    const task = await addTask(t.store.db);
    const failing = t.store.db.transaction().execute(async (trx) => {
      await saveLockedTask(trx, task, { status: 'inProgress', currentStep: 'intro' }, t0 + 1);
      await enqueueUpdate(trx, { taskId: task.id, record: { taskStatus: 'inProgress' }, now: t0 + 1 });
      throw new Error('the handler failed after enqueueing');
    });
    await expect(failing).rejects.toThrow('the handler failed');
    expect(await findTaskById(t.store.db, task.id)).toEqual(task);
    expect(await listUpdatesForTask(t.store.db, task.id)).toEqual([]);
  });

  it('rejects a record the platform would refuse and leaves the transaction to roll back', async () => {
    const task = await addTask(t.store.db);
    await expect(enqueue(t.store.db, task, t0, { partnerStatus: { label: 'x'.repeat(33) } })).rejects.toThrow();
    expect(await listUpdatesForTask(t.store.db, task.id)).toEqual([]);
  });

  it('keeps sentAt strictly increasing when the clock steps back', async () => {
    const task = await addTask(t.store.db);
    for (const now of [t0 + 1000, t0 + 2000, t0 + 500, t0 + 2000, t0 + 3000]) await enqueue(t.store.db, task, now);
    const sentAts = (await listUpdatesForTask(t.store.db, task.id)).map((row) => row.sentAt);
    expect(sentAts).toEqual([t0 + 1000, t0 + 2000, t0 + 2001, t0 + 2002, t0 + 3000]);
  });

  it('keeps sentAt strictly increasing for many updates in one millisecond', async () => {
    const task = await addTask(t.store.db);
    for (let i = 0; i < 50; i += 1) await enqueue(t.store.db, task, t0);
    const rows = await listUpdatesForTask(t.store.db, task.id);
    expect(rows.map((row) => row.sentAt)).toEqual(Array.from({ length: 50 }, (_, i) => t0 + i));
    expect(rows.map((row) => Date.parse(row.payload.sentAt))).toEqual(rows.map((row) => row.sentAt));
  });

  it("keeps each task's sentAt independent of other tasks", async () => {
    const [a, b] = [await addTask(t.store.db), await addTask(t.store.db)];
    await enqueue(t.store.db, a!, t0);
    await enqueue(t.store.db, a!, t0);
    await enqueue(t.store.db, b!, t0);
    expect((await listUpdatesForTask(t.store.db, a!.id)).map((row) => row.sentAt)).toEqual([t0, t0 + 1]);
    expect((await listUpdatesForTask(t.store.db, b!.id)).map((row) => row.sentAt)).toEqual([t0]);
  });

  it('serializes concurrent enqueues for one task so id order is sentAt order', async () => {
    const task = await addTask(t.store.db);
    // Postgres: a second pool, as a second server process. SQLite: one process shares one store (see the helper).
    const other = engine.name === 'postgres' ? (await t.openAnother()).db : t.store.db;
    const writers = [t.store.db, other].map((db) => Promise.all(Array.from({ length: 25 }, () => enqueue(db, task, t0))));
    await Promise.all(writers);
    const rows = await listUpdatesForTask(t.store.db, task.id);
    expect(rows).toHaveLength(50);
    expect(strictlyIncreasing(rows.map((row) => row.sentAt))).toBe(true);
  });

  it('refuses to enqueue for a task that does not exist', async () => {
    await expect(
      t.store.db.transaction().execute((trx) => enqueueUpdate(trx, { taskId: randomUUID(), record: { taskStatus: 'ready' }, now: t0 })),
    ).rejects.toThrow(/unknown task/);
  });
});
