import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { sql, type RawBuilder } from 'kysely';
import { openStore, type Store } from '@partner-task-kit/server/store/store';
import { createBenchDatabase } from './bench-support';

/**
 * A Postgres database as a partner's looks after weeks of traffic: 100,000 tasks over 200 companies and 1,000,000
 * outbox rows of both lanes (docs/operations.md#two-delivery-lanes), written by the database itself with
 * INSERT ... SELECT generate_series (seconds, where a row at a time would take many minutes), into the schema the
 * server's own migrations make (openStore), then vacuumed and analyzed as autovacuum would have by then.
 *
 * The traffic it stands for: tasks run 1,000 at a time, each writing `rows / tasks` rows that alternate between the
 * platform's and the partner's lane, one row every 2 s, so a task's rows interleave with 999 others' as real traffic
 * writes them. The default 1,000,000 rows span 23 days, inside OUTBOX_RETENTION_DAYS's default of 30: a server started
 * on the database deletes none of them while it is measured (docs/operations.md#retention). Most are delivered; 0.1 % are dead letters; the newest 2,000 tasks still have their
 * second half pending (1 % of the rows: a backlog after some hours of outage), a fifth of those tasks backing off
 * after failed tries (a tenth of which the platform answered 403), the rest due now. Each task has a history of 5 entries.
 *
 * `node --import tsx packages/kit-tests/bench/seed-scale.ts [--url postgres://…/db] [--tasks 100000] [--rows 1000000]`: seeds that
 * database, or a new scratch database on the benchmarks' Postgres, which it keeps and names for you to drop.
 */

/** Tasks running at once: a task's rows are this many ids apart. */
const CONCURRENT_TASKS = 1_000;
/** Time between two outbox rows, ms. */
const ROW_SPACING_MS = 2_000;
const HISTORY_PER_TASK = 5;

export interface SeededScale {
  tasks: number;
  outboxRows: number;
  history: number;
  /** Rows per lane and state, counted after seeding. */
  outbox: Record<string, number>;
  seconds: number;
}

const PLATFORM_PAYLOAD = JSON.stringify({
  taskStatus: 'inProgress',
  sentAt: '2026-01-05T09:00:00.000Z',
  partnerStatus: {
    label: 'Step 3 of 4 · Quiz',
    color: 'neutral',
    details: 'Safety policy SP-2026.1 read and acknowledged. Now on step 3 of 4 (Quiz).',
  },
});
const PARTNER_PAYLOAD = JSON.stringify({
  type: 'task.step_saved',
  timestamp: '2026-01-05T09:00:00.000Z',
  data: { workflowId: 'safety-training', attempt: 1, stepId: 'policy', stepData: { acknowledged: true, policyVersion: 'SP-2026.1' } },
});
const STEP_DATA = JSON.stringify({
  welcome: {},
  policy: { acknowledged: true, policyVersion: 'SP-2026.1' },
  quiz: { answers: { exits: 'b', spill: 'a', ppe: 'c', injury: 'a', lifting: 'b' } },
  signature: { fullName: 'Seeded Worker', confirmed: true },
});

/** Seeds an empty, migrated Postgres store; refuses one that holds tasks already (it may be someone's data). */
export async function seedScale(store: Store, options: { tasks: number; rows: number; now?: number }): Promise<SeededScale> {
  const { tasks, rows } = options;
  const now = options.now ?? Date.now();
  const perTask = rows / tasks;
  if (store.dialect !== 'postgres') throw new Error('seed-scale: Postgres only');
  if (!Number.isInteger(perTask) || perTask < 2 || tasks % CONCURRENT_TASKS !== 0 || tasks < 2 * CONCURRENT_TASKS) {
    throw new Error(`seed-scale: expected tasks a multiple of ${CONCURRENT_TASKS} (at least two) and rows a multiple of tasks`);
  }
  const existing = await sql<{ n: string }>`select count(*) as n from (select 1 from tasks limit 1) t`.execute(store.db);
  if (Number(existing.rows[0]?.n) > 0) throw new Error('seed-scale: the database holds tasks already; seed an empty one');
  const started = performance.now();
  const n = (value: number) => sql.lit(value);
  const block = CONCURRENT_TASKS * perTask;
  // Row i's place in the traffic: the task it belongs to, its round within that task, when it was written.
  const taskOf = sql`(i / ${n(block)}) * ${n(CONCURRENT_TASKS)} + i % ${n(CONCURRENT_TASKS)}`;
  const roundOf = sql`(i % ${n(block)}) / ${n(CONCURRENT_TASKS)}`;
  const writtenAt = (index: RawBuilder<unknown>) => sql`(${n(now)}::bigint - (${n(rows)}::bigint - ${index}) * ${n(ROW_SPACING_MS)})`;
  const firstRowOf = sql`((k / ${n(CONCURRENT_TASKS)}) * ${n(block)} + k % ${n(CONCURRENT_TASKS)})`;
  // The newest 2,000 tasks' second half: the backlog.
  const pendingTask = sql`k >= ${n(tasks - 2 * CONCURRENT_TASKS)}`;

  await store.db.transaction().execute(async (trx) => {
    await sql`
      insert into tasks (id, assigned_task_uuid, assigned_task_key, worker_uuid, task_flow_uuid, company_uuid, workflow_id,
        status, attempt, current_step, step_data, attempt_started_at, confirmed_at, opened_from, created_at, updated_at,
        change_xid, change_seq)
      select md5('task' || k)::uuid::text, a.uuid, a.uuid, md5('worker' || k)::uuid::text, md5('flow' || k % 500)::uuid::text,
        md5('company' || k % 200)::uuid::text, 'safety-training',
        case when ${pendingTask} then 'inProgress' when k % 20 = 0 then 'error' else 'completed' end,
        1, 'signature', ${STEP_DATA}, ${writtenAt(firstRowOf)}, ${writtenAt(firstRowOf)} + 1000,
        md5('address' || k % 5000), ${writtenAt(firstRowOf)},
        ${writtenAt(sql`${firstRowOf} + ${n((perTask - 1) * CONCURRENT_TASKS)}`)},
        pg_current_xact_id()::text::bigint, k + 1
      from generate_series(0, ${n(tasks - 1)}) as k, lateral (select md5('assigned' || k)::uuid::text as uuid) as a`.execute(trx);
    await sql`select setval('task_change_seq', ${n(tasks)})`.execute(trx);

    await sql`
      insert into outbox (id, task_id, assigned_task_uuid, company_uuid, lane, payload, sent_at, state, attempts,
        next_attempt_at, last_error, dead_reason, created_at, delivered_at, dead_at)
      select i + 1, md5('task' || k)::uuid::text, md5('assigned' || k)::uuid::text, md5('company' || k % 200)::uuid::text,
        case when r % 2 = 0 then 'platform' else 'partner' end,
        case when r % 2 = 0 then ${PLATFORM_PAYLOAD} else ${PARTNER_PAYLOAD} end,
        written, s.state,
        case when s.state = 'pending' and k % 5 = 0 then 3 when s.state = 'pending' then 0 else 1 end,
        case when s.state = 'pending' and k % 5 = 0 then ${n(now + 600_000)}::bigint else written end,
        case when s.state <> 'pending' or k % 5 <> 0 then null
          when k % 50 = 0 and r % 2 = 0 then 'forbidden: 403 from the platform' else 'server_error: 503' end,
        case when s.state = 'dead' then 'rejected: 422 the record fails the platform''s rules' end,
        written,
        case when s.state = 'delivered' then written + 50 end,
        case when s.state = 'dead' then written + 100 end
      from generate_series(0, ${n(rows - 1)}) as i,
        lateral (select ${taskOf} as k, ${roundOf} as r, ${writtenAt(sql`i`)} as written) as place,
        lateral (select case when ${pendingTask} and r >= ${n(Math.floor(perTask / 2))} then 'pending'
          when i % 1000 = 7 then 'dead' else 'delivered' end as state) as s`.execute(trx);
    await sql`select setval(pg_get_serial_sequence('outbox', 'id'), ${n(rows)})`.execute(trx);

    const kinds = sql`(array['opened', 'started', 'step_saved', 'step_saved', 'completed'])[h + 1]`;
    await sql`
      insert into task_history (task_id, attempt, kind, step_id, detail, at)
      select md5('task' || k)::uuid::text, 1, ${kinds},
        case h when 2 then 'welcome' when 3 then 'policy' end, null, ${writtenAt(firstRowOf)} + h * 60000
      from generate_series(0, ${n(tasks * HISTORY_PER_TASK - 1)}) as j,
        lateral (select j % ${n(tasks)} as k, j / ${n(tasks)} as h) as entry`.execute(trx);
  });
  // Outside the transaction: VACUUM cannot run in one. It sets the visibility map too, as autovacuum would have on a
  // table this old, so the index-only scans the planner picks are measured as production runs them.
  await sql`vacuum (analyze) tasks, outbox, task_history`.execute(store.db);

  const counts = await sql<{ lane: string; state: string; n: string }>`
    select lane, state, count(*) as n from outbox group by lane, state order by lane, state`.execute(store.db);
  return {
    tasks,
    outboxRows: rows,
    history: tasks * HISTORY_PER_TASK,
    outbox: Object.fromEntries(counts.rows.map((row) => [`${row.lane} ${row.state}`, Number(row.n)])),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, tasks: { type: 'string', default: '100000' }, rows: { type: 'string', default: '1000000' } },
  });
  const scratch = values.url === undefined ? await createBenchDatabase() : undefined;
  const url = values.url ?? scratch!.url;
  const store = await openStore({ kind: 'postgres', url });
  try {
    const seeded = await seedScale(store, { tasks: Number(values.tasks), rows: Number(values.rows) });
    console.log(JSON.stringify({ seeded, url }));
    if (scratch)
      process.stderr.write(
        `seed-scale: kept ${url}; drop it with: psql ${url.replace(/\/[^/]*$/, '/postgres')} -c 'drop database "${new URL(url).pathname.slice(1)}"'\n`,
      );
  } finally {
    await store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
