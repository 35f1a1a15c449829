import { sql } from 'kysely';
import type { StoreDb } from './database-schema.ts';
import { outboxLanes, type OutboxLane } from './outbox.table.ts';
import { eraseInTransaction } from './secure-erasure.ts';
import { moveTasksInFeed } from './task-changes.repository.ts';
import { claimUploadsOfTasks } from './upload-removals.repository.ts';

/*
 * TASK_DATA_RETENTION_DAYS (docs/operations.md#retention): a finished task's answers are erased, its row stays with
 * its status. The answers are the step data, the details of its history (scores), and the parts of its outbox rows
 * that repeat them: a platform update's partnerStatus.details (docs/platform.md#partner-task-update-record, where
 * the step reports quote the worker) and a partner event's stepData; and the files of its uploads, of every attempt.
 */

/**
 * The payload without the worker's answers, or undefined when it carries none. A retried dead letter is sent so: the
 * platform's record allows an update without details, and a partner event without stepData is still its event.
 */
function payloadWithoutAnswers(lane: OutboxLane, payload: string): string | undefined {
  const parsed = JSON.parse(payload) as { partnerStatus?: Record<string, unknown>; data?: Record<string, unknown> };
  const holder = lane === 'platform' ? parsed.partnerStatus : parsed.data;
  const key = lane === 'platform' ? 'details' : 'stepData';
  if (holder === undefined || !(key in holder)) return undefined;
  delete holder[key];
  return JSON.stringify(parsed);
}

/**
 * The finished tasks still holding answers, by when they last changed: word for word the condition of the partial
 * index tasks_answers_to_erase (migrations/0012-data-retention.ts), which SQLite needs to use it.
 */
const holdsAnswers = sql<boolean>`status in ('completed', 'error') and (answers_erased_change is null or answers_erased_change <> change_seq)`;

/**
 * Erases the answers of up to `limit` tasks finished (completed or error) before `finishedBefore` with nothing
 * waiting to be delivered (a pending update or event is sent as written), in one short transaction; returns how many.
 * A task restarted meanwhile is left alone: the update re-checks that it is still finished and past its time.
 */
export function eraseAnswersOfFinishedTasks(db: StoreDb, input: { finishedBefore: number; now: number; limit: number }): Promise<number> {
  const { finishedBefore, now, limit } = input;
  return eraseInTransaction(db, async (trx) => {
    const candidates = await trx
      .selectFrom('tasks')
      .select('id')
      .where(holdsAnswers)
      .where('updated_at', '<', finishedBefore)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('outbox as o')
              .select('o.id')
              .where('o.lane', 'in', outboxLanes)
              .where(sql<boolean>`o.state = 'pending'`)
              .whereRef('o.task_id', '=', 'tasks.id'),
          ),
        ),
      )
      .orderBy('updated_at')
      .limit(limit)
      .execute();
    if (candidates.length === 0) return 0;
    const erased = await trx
      .updateTable('tasks')
      .set({ step_data: '{}', answers_erased_at: now })
      .where(
        'id',
        'in',
        candidates.map((row) => row.id),
      )
      .where(holdsAnswers)
      .where('updated_at', '<', finishedBefore)
      .returning('id')
      .execute();
    const ids = erased.map((row) => row.id);
    if (ids.length === 0) return 0;
    // The partner API shows the answers gone: the tasks move in the changes feed, so a partner that syncs re-reads
    // them. The new marker also marks the version whose answers are gone (a later write gives another, and answers).
    await moveTasksInFeed(trx, ids);
    await trx
      .updateTable('tasks')
      .set((eb) => ({ answers_erased_change: eb.ref('change_seq') }))
      .where('id', 'in', ids)
      .execute();
    await trx.updateTable('task_history').set({ detail: null }).where('task_id', 'in', ids).where('detail', 'is not', null).execute();
    // The files of every attempt go with the answers: the caller removes their bytes (docs/operations.md#files).
    await claimUploadsOfTasks(trx, ids);
    const rows = await trx.selectFrom('outbox').select(['id', 'lane', 'payload']).where('task_id', 'in', ids).execute();
    for (const row of rows) {
      const payload = payloadWithoutAnswers(row.lane, row.payload);
      if (payload !== undefined) await trx.updateTable('outbox').set({ payload }).where('id', '=', row.id).execute();
    }
    return ids.length;
  });
}
