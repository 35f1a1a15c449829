import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreDb } from '@partner-task-kit/server/store/database-schema';
import { enqueueUpdate } from '@partner-task-kit/server/store/outbox-enqueue.repository';
import { claimDeliverable, markDelivered } from '@partner-task-kit/server/store/outbox.repository';
import { outboxStats } from '@partner-task-kit/server/store/outbox-status.repository';
import { insertTask } from '@partner-task-kit/server/store/tasks.repository';
import { testDatabases } from '../helpers/test-databases';
import type { TestDatabase } from '../helpers/test-databases';

const TASKS = 12;
const UPDATES_PER_TASK = 8;

async function seed(db: StoreDb, now: number): Promise<Map<string, number[]>> {
  const idsByTask = new Map<string, number[]>();
  for (let i = 0; i < TASKS; i += 1) {
    const task = await insertTask(db, {
      assignedTaskUuid: randomUUID(),
      workerUuid: randomUUID(),
      taskFlowUuid: randomUUID(),
      companyUuid: randomUUID(),
      workflowId: 'onboarding-quiz',
      now,
    });
    idsByTask.set(task.id, []);
  }
  // Interleaved, so every task's rows are spread across the outbox.
  for (let u = 0; u < UPDATES_PER_TASK; u += 1) {
    for (const [taskId, ids] of idsByTask) {
      const row = await db.transaction().execute((trx) => enqueueUpdate(trx, { taskId, record: { taskStatus: 'inProgress' }, now }));
      ids.push(row.id);
    }
  }
  return idsByTask;
}

describe.each(testDatabases)('concurrent claimers on $name', (engine) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await engine.open();
  });
  afterEach(() => t.cleanup());

  it('never claim a row twice, claim every row, and keep one row per task in flight, in order', async () => {
    const now = Date.now();
    const idsByTask = await seed(t.store.db, now);
    // Two stores on one database: two pools on Postgres (two server processes), two connections on SQLite.
    const claimers = [t.store.db, (await t.openAnother()).db];
    const claimedBy = new Map<number, string>();
    const inFlightTask = new Set<string>();
    const deliveredOrder = new Map<string, number[]>();
    const violations: string[] = [];

    async function run(db: StoreDb, workerId: string): Promise<void> {
      for (let idle = 0; idle < 50;) {
        const rows = await claimDeliverable(db, { now: Date.now(), leaseMs: 60_000, limit: 3, workerId });
        if (rows.length === 0) {
          if ((await outboxStats(db, Date.now())).pending === 0) return;
          idle += 1;
          await new Promise((resolve) => setTimeout(resolve, 2));
          continue;
        }
        for (const row of rows) {
          if (claimedBy.has(row.id)) violations.push(`row ${row.id} claimed by ${claimedBy.get(row.id)} and ${workerId}`);
          if (inFlightTask.has(row.taskId)) violations.push(`task ${row.taskId} had two rows in flight`);
          claimedBy.set(row.id, workerId);
          inFlightTask.add(row.taskId);
        }
        await Promise.all(
          rows.map(async (row) => {
            // Leave the in-flight set before settling: once settled, the task's next row may be claimed at once.
            inFlightTask.delete(row.taskId);
            deliveredOrder.set(row.taskId, [...(deliveredOrder.get(row.taskId) ?? []), row.id]);
            if (!(await markDelivered(db, row.id, { now: Date.now(), workerId }))) violations.push(`lost lease on ${row.id}`);
          }),
        );
      }
      violations.push(`${workerId} gave up while rows were pending`);
    }

    await Promise.all(claimers.map((db, i) => run(db, `relay-${i}`)));

    expect(violations).toEqual([]);
    expect(claimedBy.size).toBe(TASKS * UPDATES_PER_TASK);
    expect(new Set(claimedBy.values()).size).toBe(2);
    for (const [taskId, ids] of idsByTask) expect(deliveredOrder.get(taskId), taskId).toEqual(ids);
    expect(await outboxStats(t.store.db, Date.now())).toMatchObject({ pending: 0, delivered: TASKS * UPDATES_PER_TASK, dead: 0 });
  });
});
