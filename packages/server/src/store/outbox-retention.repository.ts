import type { StoreDb } from './database-schema.ts';
import { outboxLanes, type OutboxLane } from './outbox.table.ts';

/*
 * What leaves the outbox besides delivery (docs/operations.md#retention): delivered rows past OUTBOX_RETENTION_DAYS,
 * one window at a time, and dead letters an operator deletes. Each call is one short statement or two; the caller
 * walks the windows and pauses between them, so neither engine's writers wait long behind one.
 */

export interface PruneWindow {
  deleted: number;
  /** The last id looked at: the next window starts after it. */
  lastId: number;
  /** Nothing past this window can be due: the walk is over for this run. */
  done: boolean;
}

/**
 * Looks at the next `limit` delivered rows of one lane past `afterId`, in id order (through the (lane, state, id)
 * index), and deletes those delivered before `before`. A task's newest delivered platform row is kept: the sentAt
 * rule (outbox-enqueue.repository.ts) reads the task's newest platform row, and while a newer one is pending or dead
 * it is that one, which this never deletes; should an operator delete that dead letter, the rule falls back to the
 * newest delivered, whose sentAt the platform applied last. The partner lane's rows count for no rule.
 */
export async function pruneDeliveredWindow(
  db: StoreDb,
  input: { lane: OutboxLane; before: number; afterId: number; limit: number },
): Promise<PruneWindow> {
  const { lane, before, afterId, limit } = input;
  const window = await db
    .selectFrom('outbox')
    .select(['id', 'delivered_at', 'created_at'])
    .where('lane', '=', lane)
    .where('state', '=', 'delivered')
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  const last = window.at(-1);
  if (!last) return { deleted: 0, lastId: afterId, done: true };
  const due = window.filter((row) => row.delivered_at !== null && Number(row.delivered_at) < before).map((row) => row.id);
  let deleted = 0;
  if (due.length > 0) {
    const result = await db
      .deleteFrom('outbox')
      .where('id', 'in', due)
      .where('state', '=', 'delivered')
      .$if(lane === 'platform', (qb) =>
        qb.where((eb) =>
          eb.exists(
            eb
              .selectFrom('outbox as newer')
              .select('newer.id')
              .where('newer.lane', '=', 'platform')
              .where('newer.state', '=', 'delivered')
              .whereRef('newer.task_id', '=', 'outbox.task_id')
              .whereRef('newer.id', '>', 'outbox.id'),
          ),
        ),
      )
      .executeTakeFirst();
    deleted = Number(result.numDeletedRows);
  }
  // Ids follow creation: a window whose rows were all written after `before` has none delivered before it, nor
  // does any later one.
  const done = window.length < limit || window.every((row) => Number(row.created_at) >= before);
  return { deleted, lastId: last.id, done };
}

/** Deletes one dead letter, of either lane; false when `id` is no dead letter. */
export async function deleteDeadLetter(db: StoreDb, id: number): Promise<boolean> {
  const result = await db.deleteFrom('outbox').where('id', '=', id).where('state', '=', 'dead').executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Deletes up to `limit` dead letters, oldest first, of both lanes or the one named; returns how many went. Named
 * lanes, even both: the outbox's indexes by state lead by lane (migrations/0011-lane-led-outbox-indexes.ts).
 */
export async function deleteDeadLetters(db: StoreDb, input: { limit: number; lane?: OutboxLane | undefined }): Promise<number> {
  const lanes = input.lane === undefined ? outboxLanes : [input.lane];
  const result = await db
    .deleteFrom('outbox')
    .where('id', 'in', (eb) =>
      eb.selectFrom('outbox').select('id').where('lane', 'in', lanes).where('state', '=', 'dead').orderBy('id').limit(input.limit),
    )
    .where('state', '=', 'dead')
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
