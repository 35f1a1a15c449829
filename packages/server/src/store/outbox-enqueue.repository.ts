import {
  cleanPartnerStatus,
  partnerTaskUpdateSchema,
  type PartnerTaskUpdate,
  type PartnerTaskUpdateRecord,
} from '@partner-task-kit/workflow/contract';
import type { StoreDb } from './database-schema.ts';
import { compileOnce } from './compiled-query.ts';

/**
 * The row an update is written as: its sentAt, max(now, previous + 1 ms) after the task's last one (`previousSentAt`),
 * and its record, cleaned and checked as the platform will check it. sentAt grows strictly per task, even when the
 * clock steps back or two updates fall in one millisecond, because docs/platform.md#statuses-and-transitions and
 * docs/platform.md#the-update-endpoint ignore an update older than one applied.
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

/**
 * The task's last platform sentAt, null before its first update: that of its newest platform row, so a clean-up must
 * keep each live task's newest row (outbox-retention.repository.ts). The task services read it once the task is locked
 * (locked-task.ts), so two transactions of one task take their sentAts one after the other, in id order.
 */
export async function readLastSentAt(trx: StoreDb, taskId: string): Promise<number | null> {
  const last = (await selectLastSentAt(trx, { taskId })).rows[0]?.sent_at;
  return last == null ? null : Number(last);
}

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
