import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimDeliverable } from '@partner-task-kit/server/store/outbox.repository';
import { outboxLanes, type OutboxLane, type OutboxState } from '@partner-task-kit/server/store/outbox.table';
import { tableAccesses } from '../helpers/query-plans';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices } from '../helpers/task-services';
import { deliverEverything } from '../helpers/worker-answers';

const postgres = testDatabases.find((engine) => engine.name === 'postgres')!;
const t0 = 1_700_000_000_000;

/**
 * The claim's plan when Postgres's statistics are wrong (docs/operations.md#the-claim-and-the-planner): it must walk
 * the lane's pending rows in id order and check each candidate's task through the per-task index, whatever the
 * planner believes about how many rows are pending. Any other plan reads delivered rows, or every pending row per
 * candidate, and a backlog of thousands then drains at a tenth of the speed.
 */
describe('the Postgres claim with misleading statistics', () => {
  let t: TestDatabase;
  let taskIds: string[];

  beforeEach(async () => {
    t = await postgres.open();
    const services = taskServices(t.store, { clock: new ManualClock(t0) });
    taskIds = [];
    for (let index = 0; index < 50; index += 1) taskIds.push((await services.open()).id);
    // The openings' `ready`s delivered: the rows a test adds (raw, by the thousand) are then the only ones pending.
    await deliverEverything(t.store, t0);
  });
  afterEach(() => t.cleanup());

  async function addRows(lane: OutboxLane, state: OutboxState, count: number): Promise<void> {
    await sql`
      insert into outbox (task_id, assigned_task_uuid, company_uuid, lane, payload, sent_at, state, attempts, next_attempt_at, created_at)
      select (${sql.val(taskIds)}::text[])[1 + i % ${taskIds.length}], 'x', 'c', ${lane}, '{}', ${t0}, ${state}, 0, ${t0}, ${t0}
      from generate_series(1, ${count}) as i`.execute(t.store.db);
  }

  async function claimIndexes(lane: OutboxLane): Promise<string[]> {
    const accesses = await tableAccesses(t.store, 'outbox', (db) =>
      claimDeliverable(db, { now: t0 + 1000, leaseMs: 30_000, limit: 64, workerId: 'plan', lane }),
    );
    return accesses.filter((access) => !access.byId).map((access) => access.index ?? access.detail);
  }

  it.each(outboxLanes)('on a table never analyzed, the %s claim walks its pending index and checks tasks by index', async (lane) => {
    await addRows(lane, 'pending', 5000);
    expect(await claimIndexes(lane)).toEqual([`outbox_pending_${lane}_id`, 'outbox_pending_lane_task']);
  });

  it.each(outboxLanes)(
    'after an outage on a table analyzed with nothing pending, the %s claim does the same',
    async (lane) => {
      for (const each of outboxLanes) await addRows(each, 'delivered', 20_000);
      await sql`vacuum analyze outbox`.execute(t.store.db);
      await addRows(lane, 'pending', 5000);
      expect(await claimIndexes(lane)).toEqual([`outbox_pending_${lane}_id`, 'outbox_pending_lane_task']);
    },
    30_000,
  );
});
