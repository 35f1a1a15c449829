import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreDb } from '@partner-task-kit/server/store/database-schema';
import { claimDeliverable, markManyDelivered } from '@partner-task-kit/server/store/outbox.repository';
import { listUpdatesForTask, outboxStatsByLane } from '@partner-task-kit/server/store/outbox-status.repository';
import { testDatabases } from '../helpers/test-databases';
import type { TestDatabase } from '../helpers/test-databases';
import type { Store } from '@partner-task-kit/server/store/store';
import { taskServices } from '../helpers/task-services';

const TASKS = 12;
const UPDATES_PER_TASK = 8;

/** Tasks opened by workers, each with its updates written, and each task's rows in the order written. */
async function seedInterleaved(store: Store): Promise<Map<string, number[]>> {
  const services = taskServices(store);
  const tasks = await Promise.all(Array.from({ length: TASKS }, () => services.open()));
  // Interleaved, so every task's rows are spread across the outbox.
  for (let u = 1; u < UPDATES_PER_TASK; u += 1) for (const task of tasks) await services.nextUpdate(task);
  const idsByTask = new Map<string, number[]>();
  for (const task of tasks)
    idsByTask.set(
      task.id,
      (await listUpdatesForTask(store.db, task.id)).map((row) => row.id),
    );
  return idsByTask;
}

describe.each(testDatabases)('concurrent claimers on $name', (engine) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await engine.open();
  });
  afterEach(() => t.cleanup());

  it('never claim a row twice, claim every row, and keep one row per task in flight, in order', async () => {
    const idsByTask = await seedInterleaved(t.store);
    // Two stores on one database: two pools on Postgres (two server processes), two connections on SQLite.
    const claimers = [t.store.db, (await t.openStore()).db];
    const claimedBy = new Map<number, string>();
    const inFlightTask = new Set<string>();
    const deliveredOrder = new Map<string, number[]>();
    const violations: string[] = [];

    async function run(db: StoreDb, workerId: string): Promise<void> {
      for (let idle = 0; idle < 50;) {
        const rows = await claimDeliverable(db, { now: Date.now(), leaseMs: 60_000, limit: 3, workerId });
        if (rows.length === 0) {
          if ((await outboxStatsByLane(db, Date.now())).platform.pending === 0) return;
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
            if ((await markManyDelivered(db, [row.id], { now: Date.now(), workerId })).length !== 1)
              violations.push(`lost lease on ${row.id}`);
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
    expect((await outboxStatsByLane(t.store.db, Date.now())).platform).toMatchObject({
      pending: 0,
      delivered: TASKS * UPDATES_PER_TASK,
      dead: 0,
    });
  });
});
