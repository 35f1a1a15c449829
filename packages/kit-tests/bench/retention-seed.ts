import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { openStore } from '@partner-task-kit/server/store/store';

/** A delivered update as the step path writes one: its details quote a step report (docs/platform.md#partner-task-update-record). */
const PAYLOAD = JSON.stringify({
  taskStatus: 'inProgress',
  sentAt: '2026-01-05T09:00:00.000Z',
  partnerId: '00000000-0000-4000-8000-000000000000',
  partnerStatus: {
    label: 'Step 3 of 4 · Quiz',
    color: 'neutral',
    details: 'Safety policy SP-2026.1 read and acknowledged. Now on step 3 of 4 (Quiz).',
  },
});

/** Rows a task leaves past the retention, both lanes: five updates and five events, as a four-step workflow writes. */
const PRUNABLE_PER_TASK = 10;
/** Tasks in progress at once, whose rows interleave in the outbox: workers doing their tasks side by side. */
const INTERLEAVED = 100;

/** A task id as random as a UUID in index order (a multiplicative hash of the task's number leads it), and unique. */
const taskId = (number: ReturnType<typeof sql.ref>) =>
  sql`printf('%08x-0000-4000-8000-%012d', (${number} * 2654435761) % 4294967296, ${number})`;

export interface SeededHistory {
  /** Rows past any retention, both lanes. */
  prunable: number;
  /** Each task's newest delivered update, which the sentAt rule keeps. */
  kept: number;
  /** The largest id seeded: rows above it are the load's own. */
  lastId: number;
}

/**
 * A SQLite file with `rows` delivered rows 100 days old, as a deployment accumulates them: tasks of 20 companies, each
 * with five updates and five events then its last update, 100 tasks at a time in progress, their rows interleaved.
 * The pruning job must delete exactly `rows` and keep one update per task.
 */
export async function seedDeliveredHistory(filename: string, rows: number): Promise<SeededHistory> {
  const tasks = Math.ceil(rows / PRUNABLE_PER_TASK);
  const perTask = PRUNABLE_PER_TASK + 1;
  const store = await openStore({ kind: 'sqlite', filename });
  const longAgo = Date.now() - 100 * 24 * 60 * 60_000;
  try {
    await store.db.transaction().execute(async (trx) => {
      await sql`
        with recursive n(i) as (select 0 union all select i + 1 from n where i < ${tasks - 1})
        insert into tasks (id, assigned_task_uuid, assigned_task_key, worker_uuid, task_flow_uuid, company_uuid, workflow_id,
          status, attempt, step_data, created_at, updated_at)
        select ${taskId(sql.ref('i'))}, printf('10000000-0000-4000-8000-%012d', i),
          printf('10000000-0000-4000-8000-%012d', i), printf('20000000-0000-4000-8000-%012d', i),
          '30000000-0000-4000-8000-000000000000', printf('40000000-0000-4000-8000-%012d', i % 20), 'safety-training',
          'completed', 1, '{}', ${longAgo}, ${longAgo}
        from n`.execute(trx);
      // Row k of the history: INTERLEAVED tasks' rows interleaved, the j-th row of its task; the last is the kept update.
      // Literals: a bound JavaScript number is a real, and would make these divisions fractional.
      const group = sql.lit(perTask * INTERLEAVED);
      const interleaved = sql.lit(INTERLEAVED);
      await sql`
        with recursive n(k) as (select 0 union all select k + 1 from n where k < ${tasks * perTask - 1}),
        r as (select k, (k / ${group}) * ${interleaved} + k % ${interleaved} as task, (k % ${group}) / ${interleaved} as j from n)
        insert into outbox (task_id, assigned_task_uuid, company_uuid, lane, payload, sent_at, state, attempts, next_attempt_at,
          created_at, delivered_at)
        select ${taskId(sql.ref('task'))}, printf('10000000-0000-4000-8000-%012d', task),
          printf('40000000-0000-4000-8000-%012d', task % 20), case when j < ${sql.lit(PRUNABLE_PER_TASK)} and j % 2 = 1 then 'partner' else 'platform' end,
          ${PAYLOAD}, ${longAgo} + k, 'delivered', 1, ${longAgo}, ${longAgo} + k, ${longAgo} + k + 50
        from r`.execute(trx);
    });
    const last = await store.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    return { prunable: tasks * PRUNABLE_PER_TASK, kept: tasks, lastId: Number(last.id) };
  } finally {
    await store.close();
  }
}

/** The seeded rows not pruned yet, read from another connection (a SQLite reader never waits for the server's writer). */
export function prunableLeft(filename: string, seeded: SeededHistory): number {
  const database = new Database(filename, { readonly: true });
  try {
    const row = database
      .prepare(`select count(*) as n from outbox where lane in ('platform', 'partner') and state = 'delivered' and id <= ?`)
      .get(seeded.lastId) as { n: number };
    return row.n - seeded.kept;
  } finally {
    database.close();
  }
}
