import type { StoreDb } from './database-schema';
import { toOutboxUpdate } from './outbox.table';
import type { OutboxLane, OutboxState, OutboxUpdate } from './outbox.table';

/*
 * What the outbox holds, read for people rather than for delivery: a task's updates for the page and the preview, the
 * counts for /metrics and the doctor, and the dead letters an operator lists and sends again. The delivery lifecycle
 * (enqueue, claim, settle) is outbox.repository.ts.
 */

/** A task's updates to the platform in the order they are delivered, with their delivery state (`GET /api/task/updates`). */
export async function listUpdatesForTask(db: StoreDb, taskId: string): Promise<OutboxUpdate[]> {
  const rows = await db
    .selectFrom('outbox')
    .selectAll()
    .where('task_id', '=', taskId)
    .where('lane', '=', 'platform')
    .orderBy('id')
    .execute();
  return rows.map(toOutboxUpdate);
}

/** Oldest first, as an operator works through them. */
export async function listDead(db: StoreDb, options: { limit: number } = { limit: 100 }): Promise<OutboxUpdate[]> {
  const rows = await db.selectFrom('outbox').selectAll().where('state', '=', 'dead').orderBy('id').limit(options.limit).execute();
  return rows.map(toOutboxUpdate);
}

/**
 * Puts a dead row back in line, due now, with a fresh attempt budget. If a later update of its task was delivered
 * meanwhile, this one carries an older sentAt and the platform ignores it (docs/platform.md#statuses-and-transitions): resending is always safe.
 * Its reason moves to last_error so the history of the failure is kept.
 */
export async function retryDead(db: StoreDb, id: number, now: number): Promise<boolean> {
  const result = await reviveDead(db, now).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function retryAllDead(db: StoreDb, now: number): Promise<number> {
  const result = await reviveDead(db, now).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

function reviveDead(db: StoreDb, now: number) {
  return db
    .updateTable('outbox')
    .set((eb) => ({
      state: 'pending',
      attempts: 0,
      next_attempt_at: now,
      last_error: eb.fn.coalesce('dead_reason', 'last_error'),
      dead_reason: null,
      dead_at: null,
      locked_until: null,
      locked_by: null,
    }))
    .where('state', '=', 'dead');
}

export interface OutboxStats {
  pending: number;
  /** Age of the oldest pending row: how far delivery lags. 0 when nothing is pending. */
  oldestPendingAgeMs: number;
  delivered: number;
  dead: number;
}

/** One lane's counts (the platform's by default), for the doctor and the tests. */
export async function outboxStats(db: StoreDb, now: number, lane: OutboxLane = 'platform'): Promise<OutboxStats> {
  return (await outboxStatsByLane(db, now))[lane];
}

/** For `/metrics` and `npm run outbox -- status`: both lanes in one query. Counts every row, so its cost grows with the delivered history. */
export async function outboxStatsByLane(db: StoreDb, now: number): Promise<Record<OutboxLane, OutboxStats>> {
  const rows = await db
    .selectFrom('outbox')
    .select((eb) => ['lane', 'state', eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .groupBy(['lane', 'state'])
    .execute();
  const of = (lane: OutboxLane) =>
    statsOf(new Map(rows.filter((r) => r.lane === lane).map((r) => [r.state, { count: Number(r.count), oldest: Number(r.oldest) }])), now);
  return { platform: of('platform'), partner: of('partner') };
}

function statsOf(byState: Map<OutboxState, { count: number; oldest: number }>, now: number): OutboxStats {
  const pending = byState.get('pending');
  return {
    pending: pending?.count ?? 0,
    oldestPendingAgeMs: pending ? Math.max(0, now - pending.oldest) : 0,
    delivered: byState.get('delivered')?.count ?? 0,
    dead: byState.get('dead')?.count ?? 0,
  };
}

/**
 * Pending updates whose last attempt the platform answered with 403 (the relay records `forbidden: …`): held until
 * the integration's role gets its permission. For the doctor and `npm run outbox -- status`.
 */
export async function heldForPermission(db: StoreDb, now: number): Promise<{ forbidden: number; oldestAgeMs: number }> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('lane', '=', 'platform')
    .where('state', '=', 'pending')
    .where('last_error', 'like', 'forbidden:%')
    .executeTakeFirst();
  const count = Number(row?.count ?? 0);
  return { forbidden: count, oldestAgeMs: count > 0 && row?.oldest != null ? Math.max(0, now - Number(row.oldest)) : 0 };
}
