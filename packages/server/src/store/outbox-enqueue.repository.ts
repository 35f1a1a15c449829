import {
  cleanPartnerStatus,
  partnerTaskUpdateSchema,
  type PartnerTaskUpdate,
  type PartnerTaskUpdateRecord,
} from '@partner-task-kit/workflow/contract';
import type { StoreDb } from './database-schema.ts';
import { compileOnce } from './compiled-query.ts';
import { outboxUpdateOf, type OutboxUpdate } from './outbox.table.ts';

/**
 * Writes an update in the caller's transaction, beside the task change it reports (docs/decisions/002-outbox-not-dual-writes.md: outbox, not
 * dual writes). sentAt = max(now, previous + 1 ms), strictly increasing per task even when the clock steps back or
 * two updates fall in one millisecond, because docs/platform.md#statuses-and-transitions and docs/platform.md#the-update-endpoint ignore an update older than one applied. The
 * previous sentAt is that of the task's newest outbox row (so a clean-up must keep each live task's newest row). On
 * Postgres the task row is locked first, so two transactions for one task serialize and their outbox ids follow
 * their sentAt order; SQLite write transactions exclude each other already. A caller that already holds the row
 * locked in this transaction (the task services) passes it as `lockedTask`, and it is not read again.
 */
export async function enqueueUpdate(
  trx: StoreDb,
  input: {
    taskId: string;
    record: PartnerTaskUpdateRecord;
    now: number;
    lockedTask?: { assignedTaskUuid: string; companyUuid: string };
  },
): Promise<OutboxUpdate> {
  const { taskId, record, now } = input;
  // Separate statements, not one with a subquery: on Postgres a statement that waited for the lock still reads with
  // the snapshot it started with, and would miss the sentAt of the transaction it waited for.
  const task = input.lockedTask ?? (await lockTaskKey(trx, { taskId })).rows[0];
  if (!task) throw new Error(`cannot enqueue an update for unknown task ${taskId}`);
  const { payload, sentAt } = platformUpdateOf(record, now, await readLastSentAt(trx, taskId));
  const row = {
    task_id: taskId,
    assigned_task_uuid: task.assignedTaskUuid,
    // Lower case: company UUIDs compare without case (the relay filters claims by company).
    company_uuid: task.companyUuid.toLowerCase(),
    payload: JSON.stringify(payload),
    sent_at: sentAt,
    state: 'pending' as const,
    attempts: 0,
    refusals: 0,
    lane: 'platform' as const,
    next_attempt_at: now,
    locked_until: null,
    locked_by: null,
    last_error: null,
    dead_reason: null,
    created_at: now,
    delivered_at: null,
    dead_at: null,
  };
  const inserted = (await insertPending(trx, row)).rows[0];
  if (!inserted) throw new Error(`no outbox row was written for task ${taskId}`);
  return outboxUpdateOf({ ...row, id: inserted.id }, payload);
}

/**
 * The row an update is written as: its sentAt, max(now, previous + 1 ms) after the task's last one (`previousSentAt`),
 * and its record, cleaned and checked as the platform will check it.
 */
export function platformUpdateOf(
  record: PartnerTaskUpdateRecord,
  now: number,
  previousSentAt: number | null,
): { payload: PartnerTaskUpdate; sentAt: number } {
  const sentAt = previousSentAt === null || previousSentAt < now ? now : previousSentAt + 1;
  // Every update is written here, so its texts are cleaned here: a worker's typed answer (a signed name in the
  // details) reaches the admin's panel without bidirectional controls or broken characters, whichever path built it.
  const { partnerStatus } = record;
  const cleaned = partnerStatus === undefined ? record : { ...record, partnerStatus: cleanPartnerStatus(partnerStatus) };
  // A record the platform would reject (e.g. a label over 32 characters, docs/platform.md#limits) fails here, in the request, not later
  // as a dead letter.
  return { payload: partnerTaskUpdateSchema.parse({ ...cleaned, sentAt: new Date(sentAt).toISOString() }), sentAt };
}

/** The task's last platform sentAt, null before its first update. */
export async function readLastSentAt(trx: StoreDb, taskId: string): Promise<number | null> {
  const last = (await selectLastSentAt(trx, { taskId })).rows[0]?.sent_at;
  return last == null ? null : Number(last);
}

const lockTaskKey = compileOnce<{ taskId: string }, { assignedTaskUuid: string; companyUuid: string }>((db, param) =>
  db
    .selectFrom('tasks')
    .select(['assigned_task_uuid as assignedTaskUuid', 'company_uuid as companyUuid'])
    .where('id', '=', param('taskId'))
    .forUpdate(),
);

/**
 * The newest platform row's: sentAt grows with id within a task (above), so this is the task's greatest sentAt. The
 * partner lane's rows carry no sentAt of the platform's and never count.
 */
const selectLastSentAt = compileOnce<{ taskId: string }, { sent_at: number }>((db, param) =>
  db
    .selectFrom('outbox')
    .select('sent_at')
    .where('task_id', '=', param('taskId'))
    .where('lane', '=', 'platform')
    .orderBy('id', 'desc')
    .limit(1),
);

const insertPending = compileOnce<
  {
    task_id: string;
    assigned_task_uuid: string;
    company_uuid: string;
    payload: string;
    sent_at: number;
    next_attempt_at: number;
    created_at: number;
  },
  { id: number }
>((db, param) =>
  db
    .insertInto('outbox')
    .values({
      task_id: param('task_id'),
      assigned_task_uuid: param('assigned_task_uuid'),
      company_uuid: param('company_uuid'),
      payload: param('payload'),
      sent_at: param('sent_at'),
      state: 'pending',
      attempts: 0,
      next_attempt_at: param('next_attempt_at'),
      created_at: param('created_at'),
    })
    .returning('id'),
);
