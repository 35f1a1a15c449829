import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreDb } from '@partner-task-kit/server/store/database-schema';
import { bringRetriesForward, claimDeliverable, nextDueAt } from '@partner-task-kit/server/store/outbox.repository';
import {
  heldForPermission,
  listDead,
  outboxStatsByLane,
  retryAllDead,
  retryDead,
} from '@partner-task-kit/server/store/outbox-status.repository';
import { outboxLanes, type OutboxLane, type OutboxState } from '@partner-task-kit/server/store/outbox.table';
import type { Store } from '@partner-task-kit/server/store/store';
import { indexesLedBy, tableAccesses, type TableAccess } from '../helpers/query-plans';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices } from '../helpers/task-services';
import { deliverEverything } from '../helpers/worker-answers';

const t0 = 1_700_000_000_000;
const now = t0 + 60_000;
const lease = { leaseMs: 30_000, workerId: 'relay-plan' };

/**
 * An outbox as a deployment grows one, in the order it writes it: per lane a long delivered history, a few dead
 * letters, then the backlog (the newest ids), over two companies. Postgres plans from statistics, so it gets them
 * (VACUUM ANALYZE, as autovacuum would); SQLite never runs ANALYZE here, as the server never does.
 */
async function seedGrownOutbox(store: Store): Promise<{ company: string; deadId: number }> {
  const companies = [randomUUID(), randomUUID()];
  const services = taskServices(store, { clock: new ManualClock(t0) });
  const tasks = [];
  for (let index = 0; index < 20; index += 1) tasks.push(await services.open({ wxCompanyUuid: companies[index % 2]! }));
  // Each opening's `ready` is the start of its task's delivered history.
  await deliverEverything(store, t0);
  // The rest raw, a statement for each task's rows of a state and lane: thousands of them, which requests would take
  // minutes to write.
  const perTask: [OutboxState, number][] = [
    ['delivered', 500],
    ['dead', 2],
    ['pending', 5],
  ];
  for (const [state, count] of perTask) {
    for (const lane of outboxLanes) {
      for (const task of tasks) {
        await sql`
          with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
          insert into outbox (task_id, assigned_task_uuid, company_uuid, lane, payload, sent_at, state, attempts, next_attempt_at, created_at)
          select ${task.id}, ${task.assignedTaskUuid}, ${task.companyUuid.toLowerCase()}, ${lane}, '{}', cast(${t0} as bigint),
            ${state}, 0, cast(${t0} as bigint), cast(${t0} as bigint)
          from n`.execute(store.db);
      }
    }
  }
  if (store.dialect === 'postgres') await sql`vacuum analyze outbox`.execute(store.db);
  const dead = await store.db
    .selectFrom('outbox')
    .select('id')
    .where('lane', '=', 'partner')
    .where('state', '=', 'dead')
    .executeTakeFirstOrThrow();
  return { company: companies[0]!.toLowerCase(), deadId: dead.id };
}

describe.each(testDatabases)('the outbox queries on $name', (engine) => {
  let t: TestDatabase;
  let seeded: { company: string; deadId: number };
  let laneLed: Set<string>;

  beforeAll(async () => {
    t = await engine.open();
    seeded = await seedGrownOutbox(t.store);
    laneLed = await indexesLedBy(t.store, 'outbox', 'lane');
  }, 60_000);
  afterAll(() => t.cleanup());

  /** Each query's reads of the outbox that neither lead by lane nor look rows up by id: none is the rule. */
  async function offLane(queries: Record<string, (db: StoreDb) => Promise<unknown>>): Promise<Record<string, TableAccess[]>> {
    const found: Record<string, TableAccess[]> = {};
    for (const [name, run] of Object.entries(queries)) {
      const accesses = await tableAccesses(t.store, 'outbox', run);
      // A query whose plan names no read of the outbox was not seen at all: that would prove nothing.
      expect(accesses, name).not.toEqual([]);
      found[name] = accesses.filter((access) => !access.byId && (access.index === undefined || !laneLed.has(access.index)));
    }
    return found;
  }

  const nothingOffLane = (queries: Record<string, unknown>) => Object.fromEntries(Object.keys(queries).map((name) => [name, []]));

  it.each(outboxLanes)("reads the %s relay's claims through indexes led by lane, never the other lane's rows", async (lane: OutboxLane) => {
    const some = [seeded.company];
    const queries = {
      claim: (db: StoreDb) => claimDeliverable(db, { ...lease, now, limit: 8, lane }),
      'claim for some companies (tenant mode)': (db: StoreDb) => claimDeliverable(db, { ...lease, now, limit: 8, companies: some, lane }),
      'probe of an open circuit': (db: StoreDb) =>
        claimDeliverable(db, { ...lease, now, limit: 1, anyDueTime: true, companies: some, lane }),
      'next due time': (db: StoreDb) => nextDueAt(db, undefined, lane),
      'next due time for some companies': (db: StoreDb) => nextDueAt(db, some, lane),
      'retries brought forward': (db: StoreDb) => bringRetriesForward(db, now, new Set(some), lane),
    };
    expect(await offLane(queries)).toEqual(nothingOffLane(queries));
  });

  it('reads the counts, dead letters and re-drives of npm run outbox through indexes led by lane', async () => {
    const queries = {
      'counts per lane (status, /metrics)': (db: StoreDb) => outboxStatsByLane(db, now),
      'held by a 403': (db: StoreDb) => heldForPermission(db, now),
      'dead letters of both lanes': (db: StoreDb) => listDead(db, { limit: 1000 }),
      'dead letters of one lane': (db: StoreDb) => listDead(db, { limit: 1000, lane: 'partner' }),
      'retry-dead of both lanes': (db: StoreDb) => retryAllDead(db, now),
      'retry-dead of one lane': (db: StoreDb) => retryAllDead(db, now, 'platform'),
      'retry one by id': (db: StoreDb) => retryDead(db, seeded.deadId, now),
    };
    expect(await offLane(queries)).toEqual(nothingOffLane(queries));
  });
});
