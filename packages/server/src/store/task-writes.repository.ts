import { CompiledQuery } from 'kysely';
import type { StoreDb } from './database-schema.ts';
import { compileOnce } from './compiled-query.ts';
import type { OutboxLane } from './outbox.table.ts';
import { prepareOnPostgres } from './prepared-statements.ts';
import { changeMarkerColumns, isPostgres } from './task-changes.repository.ts';
import { appendHistory } from './task-history.repository.ts';
import { toTaskHistoryEntry, type TaskHistoryEntry, type TaskHistoryKind, type TaskHistoryRow } from './task-history.table.ts';
import { saveLockedTask } from './tasks.repository.ts';
import type { Task } from './tasks.table.ts';

/**
 * What a locked task's transaction reads once, after its lock: the current attempt's history and the task's last
 * platform sentAt (outbox-enqueue.repository.ts). A statement of its own, not part of the lock's: on Postgres a
 * statement that waited for the lock still reads with the snapshot it started with, and would miss what the
 * transaction it waited for wrote.
 */
export async function readLockedTaskState(
  db: StoreDb,
  input: { taskId: string; attempt: number },
): Promise<{ history: TaskHistoryEntry[]; lastSentAt: number | null }> {
  const { rows } = await selectLockedTaskState(db, input);
  const last = rows[0]?.last_sent_at;
  const history = rows.filter((row): row is typeof row & TaskHistoryRow => row.id !== null).map(toTaskHistoryEntry);
  return { history, lastSentAt: last == null ? null : Number(last) };
}

/** One row when the attempt has no history yet (its columns null), so the last sentAt always comes back. */
const selectLockedTaskState = compileOnce<
  { taskId: string; attempt: number },
  { last_sent_at: number | null } & { [Column in keyof TaskHistoryRow]: TaskHistoryRow[Column] | null }
>((db, param) =>
  db
    .selectFrom(
      db
        .selectNoFrom((eb) =>
          eb
            .selectFrom('outbox')
            .select('sent_at')
            .where('task_id', '=', param('taskId'))
            .where('lane', '=', 'platform')
            .orderBy('id', 'desc')
            .limit(1)
            .as('last_sent_at'),
        )
        .as('last'),
    )
    .leftJoin('task_history as h', (join) => join.on('h.task_id', '=', param('taskId')).on('h.attempt', '=', param('attempt')))
    .select(['last.last_sent_at', 'h.id', 'h.task_id', 'h.attempt', 'h.kind', 'h.step_id', 'h.detail', 'h.at'])
    .orderBy('h.id'),
);

/** A row for the outbox, built in the request (its payload checked and its sentAt given) and written at commit. */
export interface OutboxWrite {
  lane: OutboxLane;
  payload: string;
  sentAt: number;
}

export interface HistoryWrite {
  attempt: number;
  kind: TaskHistoryKind;
  stepId: string | null;
  detail: Record<string, unknown> | null;
}

/** Everything one task transaction writes of one task, gathered while it decides, in the order it was asked for. */
export interface TaskWrites {
  task: Pick<Task, 'id' | 'assignedTaskUuid' | 'companyUuid'>;
  now: number;
  /** The task as it is to be stored, when changed. */
  saved: Task | undefined;
  outbox: readonly OutboxWrite[];
  history: readonly HistoryWrite[];
}

/**
 * Writes a task transaction's changes of one task. On Postgres one statement carries them all (the task row, its
 * outbox rows and history entries, each in the order given): a step costs four round trips (BEGIN, lock, read, write)
 * and COMMIT instead of one per row (docs/operations.md#the-step-path-on-postgres). On SQLite, in process, each row is
 * its own statement.
 */
export async function writeTaskChanges(db: StoreDb, writes: TaskWrites): Promise<void> {
  if (writes.saved === undefined && writes.outbox.length === 0 && writes.history.length === 0) return;
  if (isPostgres(db)) {
    const { rows } = await db.executeQuery<{ saved: string; updates: string; entries: string }>(postgresWrite(db, writes));
    const written = rows[0];
    const expected = [writes.saved === undefined ? 0 : 1, writes.outbox.length, writes.history.length];
    if (written === undefined || [written.saved, written.updates, written.entries].map(Number).join() !== expected.join()) {
      throw new Error(`task ${writes.task.id}: wrote ${JSON.stringify(written)} of ${expected.join()} (task, outbox, history)`);
    }
    return;
  }
  const { task, now, saved } = writes;
  if (saved !== undefined) await saveLockedTask(db, saved, {}, now);
  for (const row of writes.outbox) {
    await insertOutboxRow(db, {
      taskId: task.id,
      assignedTaskUuid: task.assignedTaskUuid,
      companyUuid: task.companyUuid.toLowerCase(),
      lane: row.lane,
      payload: row.payload,
      sentAt: row.sentAt,
      now,
    });
  }
  for (const entry of writes.history) await appendHistory(db, { taskId: task.id, ...entry, at: now });
}

const insertOutboxRow = compileOnce<
  { taskId: string; assignedTaskUuid: string; companyUuid: string; lane: OutboxLane; payload: string; sentAt: number; now: number },
  never
>((db, param) =>
  db.insertInto('outbox').values({
    task_id: param('taskId'),
    assigned_task_uuid: param('assignedTaskUuid'),
    // Lower case: company UUIDs compare without case (the relay filters claims by company).
    company_uuid: param('companyUuid'),
    lane: param('lane'),
    payload: param('payload'),
    sent_at: param('sentAt'),
    state: 'pending',
    attempts: 0,
    next_attempt_at: param('now'),
    created_at: param('now'),
  }),
);

/**
 * The rows travel as arrays and unnest into INSERT … SELECT, so the statement has one text whatever their number and
 * Postgres parses and plans it once per connection. `with ordinality … order by` inserts them in the order given: ids
 * follow it, and the relay delivers a task's rows in id order (docs/decisions/003-per-task-order-with-leases.md).
 * Written by hand because Kysely builds no unnest of parallel arrays.
 */
function postgresWrite(db: StoreDb, writes: TaskWrites): CompiledQuery {
  const { task, now, saved } = writes;
  const parameters = [
    task.id,
    now,
    saved !== undefined,
    saved?.status ?? null,
    saved?.attempt ?? null,
    saved?.currentStep ?? null,
    saved === undefined ? null : JSON.stringify(saved.stepData),
    saved?.attemptStartedAt ?? null,
    saved?.failedReason ?? null,
    task.assignedTaskUuid,
    task.companyUuid.toLowerCase(),
    writes.outbox.map((row) => row.lane),
    writes.outbox.map((row) => row.payload),
    writes.outbox.map((row) => row.sentAt),
    writes.history.map((entry) => entry.attempt),
    writes.history.map((entry) => entry.kind),
    writes.history.map((entry) => entry.stepId),
    writes.history.map((entry) => (entry.detail === null ? null : JSON.stringify(entry.detail))),
  ];
  return CompiledQuery.raw(postgresWriteText(db), parameters);
}

let writeText: string | undefined;

function postgresWriteText(db: StoreDb): string {
  if (writeText !== undefined) return writeText;
  // The changes feed's markers, as every task write sets them (task-changes.repository.ts).
  const markers = changeMarkerColumns(db);
  const xid = markers.change_xid.compile(db).sql;
  const seq = markers.change_seq.compile(db).sql;
  writeText = `with saved as (
  update tasks set status = $4, attempt = $5, current_step = $6, step_data = $7, attempt_started_at = $8,
    failed_reason = $9, updated_at = $2, change_xid = ${xid}, change_seq = ${seq}
  where id = $1 and $3::boolean
  returning 1
), updates as (
  insert into outbox (task_id, assigned_task_uuid, company_uuid, lane, payload, sent_at, state, attempts, next_attempt_at, created_at)
  select $1, $10, $11, u.lane, u.payload, u.sent_at, 'pending', 0, $2, $2
  from unnest($12::text[], $13::text[], $14::bigint[]) with ordinality as u(lane, payload, sent_at, n)
  order by u.n
  returning 1
), entries as (
  insert into task_history (task_id, attempt, kind, step_id, detail, at)
  select $1, e.attempt, e.kind, e.step_id, e.detail, $2
  from unnest($15::integer[], $16::text[], $17::text[], $18::text[]) with ordinality as e(attempt, kind, step_id, detail, n)
  order by e.n
  returning 1
)
select (select count(*) from saved) as saved, (select count(*) from updates) as updates, (select count(*) from entries) as entries`;
  prepareOnPostgres(writeText);
  return writeText;
}
