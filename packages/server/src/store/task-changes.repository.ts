import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { StoreDb } from './database-schema.ts';
import type { Task, TaskRemovalReason } from './tasks.table.ts';

/**
 * Where a task write sits in the changes feed of the partner API: ordered by (xid, seq), and every change committed
 * after a feed page was read lands after that page's last marker. A task's deletion is a change too: it leaves a row
 * in `task_removals` with a marker of its own (migrations/0014-task-removals.ts).
 *
 * - Postgres: transactions commit out of the order in which they took a sequence number or a timestamp, so a marker
 *   alone would let a page pass over a change still uncommitted. The marker holds the writing transaction's id, and
 *   the feed serves only rows whose transaction is older than its snapshot's xmin: every transaction before xmin has
 *   committed or aborted, and every later one has a larger id. The sequence orders the rows of one transaction and
 *   is no shared row (sequences are not transactional), so concurrent steps never wait on each other for it. It is
 *   taken per row (`nextval` in a select list), so no two rows share a marker.
 * - SQLite: writers are serialized, so one more than the largest marker, given in the write transaction, is exact.
 *   `task_change_floor` keeps the largest marker given to a removal, which is larger than that of any task deleted
 *   with it, so no marker is given twice. A statement writing several rows numbers them one by one: a page that ends inside a run of equal markers
 *   would skip the rest of the run.
 */
export interface ChangeMarker {
  xid: number;
  seq: number;
}

export const FEED_START: ChangeMarker = { xid: 0, seq: 0 };

/** SQLite's next marker: one more than the largest given (task rows and the floor, which covers removals). */
const SQLITE_NEXT_SEQ = sql<number>`max(coalesce((select max(change_seq) from tasks), 0), coalesce((select seq from task_change_floor where id = 'tasks'), 0)) + 1`;

/** The columns a task write sets, in the same statement: one column pair, no other row touched. One row per statement on SQLite. */
export function changeMarkerColumns(db: StoreDb): { change_xid: RawBuilder<number>; change_seq: RawBuilder<number> } {
  if (isPostgres(db)) {
    return { change_xid: sql<number>`pg_current_xact_id()::text::bigint`, change_seq: sql<number>`nextval('task_change_seq')` };
  }
  return { change_xid: sql<number>`0`, change_seq: SQLITE_NEXT_SEQ };
}

/**
 * Gives each of these tasks a new marker, one per row, in the caller's transaction: for a statement that changes what
 * the partner API shows of several tasks at once (answers erased by retention). Returns each task's new `change_seq`.
 */
export async function moveTasksInFeed(db: StoreDb, taskIds: readonly string[]): Promise<Map<string, number>> {
  const markers = new Map<string, number>();
  if (taskIds.length === 0) return markers;
  if (isPostgres(db)) {
    const { rows } = await sql<{ id: string; change_seq: string }>`
      update tasks t set change_xid = pg_current_xact_id()::text::bigint, change_seq = n.seq
      from (select id, nextval('task_change_seq') as seq from tasks where id in (${sql.join([...taskIds])}) order by id) n
      where t.id = n.id
      returning t.id, t.change_seq`.execute(db);
    for (const row of rows) markers.set(row.id, Number(row.change_seq));
    return markers;
  }
  for (const id of [...taskIds].sort()) {
    const row = await db
      .updateTable('tasks')
      .set({ change_seq: SQLITE_NEXT_SEQ })
      .where('id', '=', id)
      .returning('change_seq')
      .executeTakeFirst();
    if (row) markers.set(id, Number(row.change_seq));
  }
  return markers;
}

/**
 * Records the deletion of these tasks in the changes feed, in the caller's transaction, before their rows go: one
 * removal per task, with our id, the platform's assigned task id and the company, and a marker of its own.
 */
export async function recordRemovals(
  db: StoreDb,
  input: { taskIds: readonly string[]; reason: TaskRemovalReason; now: number },
): Promise<void> {
  if (input.taskIds.length === 0) return;
  const ids = sql.join([...input.taskIds]);
  if (isPostgres(db)) {
    await sql`
      insert into task_removals (task_id, assigned_task_uuid, company_uuid, reason, removed_at, change_xid, change_seq)
      select id, assigned_task_uuid, company_uuid, ${input.reason}, ${input.now}, pg_current_xact_id()::text::bigint, nextval('task_change_seq')
      from (select id, assigned_task_uuid, company_uuid from tasks where id in (${ids}) order by id) doomed`.execute(db);
    return;
  }
  await sql`
    insert into task_removals (task_id, assigned_task_uuid, company_uuid, reason, removed_at, change_xid, change_seq)
    select id, assigned_task_uuid, company_uuid, ${input.reason}, ${input.now}, 0, (${SQLITE_NEXT_SEQ}) - 1 + row_number() over (order by id)
    from tasks where id in (${ids})`.execute(db);
  await sql`update task_change_floor set seq = max(seq, coalesce((select max(change_seq) from task_removals), 0)) where id = 'tasks'`.execute(
    db,
  );
}

/** What the feed tells of a change: the task as it is now, or its removal (`reason` set, the task's fields null). */
export interface TaskChange {
  marker: ChangeMarker;
  taskId: string;
  assignedTaskUuid: string;
  companyUuid: string;
  /** Null for a removal. */
  task: Pick<Task, 'workflowId' | 'status' | 'attempt' | 'currentStep' | 'rejectedAt' | 'updatedAt'> | null;
  removal: { reason: TaskRemovalReason; removedAt: number } | null;
}

interface ChangeRow {
  kind: 'task' | 'removal';
  task_id: string;
  assigned_task_uuid: string;
  company_uuid: string;
  workflow_id: string | null;
  status: Task['status'] | null;
  attempt: number | null;
  current_step: string | null;
  rejected_at: number | string | null;
  at: number | string;
  reason: TaskRemovalReason | null;
  change_xid: number | string;
  change_seq: number | string;
}

/**
 * Tasks changed or removed after `after`, oldest change first, each with its marker; only one company's when given.
 * One statement over both tables, so on Postgres both are read in one snapshot and cut at its xmin: read apart, a
 * removal seen in a later snapshot could carry the page past a task change the earlier one held back.
 */
export async function listTaskChanges(
  db: StoreDb,
  input: { after: ChangeMarker; limit: number; companyUuid?: string | undefined },
): Promise<TaskChange[]> {
  const where = sql.join(
    [
      sql`(change_xid, change_seq) > (${input.after.xid}, ${input.after.seq})`,
      ...(input.companyUuid === undefined ? [] : [sql`company_uuid = ${input.companyUuid}`]),
      ...(isPostgres(db) ? [sql`change_xid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`] : []),
    ],
    sql` and `,
  );
  const { rows } = await sql<ChangeRow>`
    select * from (
      select * from (
        select 'task' as kind, id as task_id, assigned_task_uuid, company_uuid, workflow_id, status, attempt, current_step,
          rejected_at, updated_at as at, cast(null as text) as reason, change_xid, change_seq
        from tasks where ${where} order by change_xid, change_seq limit ${input.limit}
      ) changed
      union all
      select * from (
        select 'removal' as kind, task_id, assigned_task_uuid, company_uuid, cast(null as text) as workflow_id,
          cast(null as text) as status, cast(null as integer) as attempt, cast(null as text) as current_step,
          cast(null as bigint) as rejected_at, removed_at as at, reason, change_xid, change_seq
        from task_removals where ${where} order by change_xid, change_seq limit ${input.limit}
      ) removed
    ) changes
    order by change_xid, change_seq
    limit ${input.limit}`.execute(db);
  return rows.map((row) => ({
    marker: markerOf(row),
    taskId: row.task_id,
    assignedTaskUuid: row.assigned_task_uuid,
    companyUuid: row.company_uuid,
    task:
      row.kind === 'task'
        ? {
            workflowId: row.workflow_id!,
            status: row.status!,
            attempt: Number(row.attempt),
            currentStep: row.current_step,
            rejectedAt: row.rejected_at === null ? null : Number(row.rejected_at),
            updatedAt: Number(row.at),
          }
        : null,
    removal: row.kind === 'removal' ? { reason: row.reason!, removedAt: Number(row.at) } : null,
  }));
}

/**
 * Postgres: whether committed changes after `after` are held back because a transaction older than them is still
 * open somewhere on the server (its xmin is cluster-wide: another database's transaction counts too).
 */
export async function countHeldBackChanges(db: StoreDb, input: { after: ChangeMarker; companyUuid?: string | undefined }): Promise<number> {
  if (!isPostgres(db)) return 0;
  const where = sql`(change_xid, change_seq) > (${input.after.xid}, ${input.after.seq})
    and change_xid >= pg_snapshot_xmin(pg_current_snapshot())::text::bigint
    ${input.companyUuid === undefined ? sql`` : sql`and company_uuid = ${input.companyUuid}`}`;
  const { rows } = await sql<{ held: string }>`
    select (select count(*) from (select 1 from tasks where ${where} limit 1000) t)
      + (select count(*) from (select 1 from task_removals where ${where} limit 1000) r) as held`.execute(db);
  return Number(rows[0]?.held ?? 0);
}

/** Postgres: the oldest transaction open on the server, for the log line of a held-back feed (never its query text). */
export async function oldestOpenTransaction(
  db: StoreDb,
): Promise<{ pid: number; database: string | null; ageSeconds: number; state: string | null; application: string | null } | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ pid: number; datname: string | null; age: number; state: string | null; application_name: string | null }>`
    select pid, datname, extract(epoch from now() - xact_start)::float8 as age, state, application_name
    from pg_stat_activity
    where xact_start is not null and (backend_xid is not null or backend_xmin is not null) and pid <> pg_backend_pid()
    order by xact_start
    limit 1`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return { pid: row.pid, database: row.datname, ageSeconds: Number(row.age), state: row.state, application: row.application_name };
}

function markerOf(row: { change_xid: number | string; change_seq: number | string }): ChangeMarker {
  return { xid: Number(row.change_xid), seq: Number(row.change_seq) };
}

/** Removals older than this are deleted by retention: a partner that syncs less often walks the feed from its start. */
export const REMOVALS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** Deletes up to `limit` removals recorded before `before`; returns how many went. */
export async function purgeRemovals(db: StoreDb, input: { before: number; limit: number }): Promise<number> {
  const result = await db
    .deleteFrom('task_removals')
    .where('task_id', 'in', (eb) =>
      eb.selectFrom('task_removals').select('task_id').where('removed_at', '<', input.before).limit(input.limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function isPostgres(db: StoreDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
