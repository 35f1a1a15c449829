import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { StoreDb } from './database-schema';
import { toTask, type Task } from './tasks.table';

/**
 * Where a task write sits in the changes feed of the partner API: ordered by (xid, seq), and every change committed
 * after a feed page was read lands after that page's last marker.
 *
 * - Postgres: transactions commit out of the order in which they took a sequence number or a timestamp, so a marker
 *   alone would let a page pass over a change still uncommitted. The marker holds the writing transaction's id, and
 *   the feed serves only rows whose transaction is older than its snapshot's xmin: every transaction before xmin has
 *   committed or aborted, and every later one has a larger id. The sequence orders the rows of one transaction and
 *   is no shared row (sequences are not transactional), so concurrent steps never wait on each other for it.
 * - SQLite: writers are serialized, so one more than the largest marker, given in the write transaction, is exact.
 *   `task_change_floor` keeps that largest value when a task is deleted, so its marker is never given again.
 */
export interface ChangeMarker {
  xid: number;
  seq: number;
}

export const FEED_START: ChangeMarker = { xid: 0, seq: 0 };

/** The columns a task write sets, in the same statement: one column pair, no other row touched. */
export function changeMarkerColumns(db: StoreDb): { change_xid: RawBuilder<number>; change_seq: RawBuilder<number> } {
  if (isPostgres(db)) {
    return { change_xid: sql<number>`pg_current_xact_id()::text::bigint`, change_seq: sql<number>`nextval('task_change_seq')` };
  }
  return {
    change_xid: sql<number>`0`,
    change_seq: sql<number>`max(coalesce((select max(change_seq) from tasks), 0), coalesce((select seq from task_change_floor where id = 'tasks'), 0)) + 1`,
  };
}

/** Before tasks are deleted (SQLite): their markers stay given, so a reader's cursor is never met by a reused one. */
export async function keepChangeFloor(db: StoreDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`update task_change_floor set seq = max(seq, coalesce((select max(change_seq) from tasks), 0)) where id = 'tasks'`.execute(db);
}

/** Tasks changed after `after`, oldest change first, each with its marker; only one company's when given. */
export async function listTaskChanges(
  db: StoreDb,
  input: { after: ChangeMarker; limit: number; companyUuid?: string | undefined },
): Promise<{ task: Task; marker: ChangeMarker }[]> {
  const rows = await db
    .selectFrom('tasks')
    .selectAll()
    .$if(input.companyUuid !== undefined, (qb) => qb.where('company_uuid', '=', input.companyUuid!))
    .where(sql<boolean>`(change_xid, change_seq) > (${input.after.xid}, ${input.after.seq})`)
    // One statement, one snapshot: the rows read and the xmin they are cut at come from the same snapshot.
    .$if(isPostgres(db), (qb) => qb.where(sql<boolean>`change_xid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`))
    .orderBy('change_xid')
    .orderBy('change_seq')
    .limit(input.limit)
    .execute();
  return rows.map((row) => ({ task: toTask(row), marker: { xid: Number(row.change_xid), seq: Number(row.change_seq) } }));
}

export function isPostgres(db: StoreDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
