import { sql, type ExpressionBuilder } from 'kysely';
import type { DatabaseSchema, StoreDb } from './database-schema.ts';
import { outboxLanes, toOutboxUpdate, type OutboxLane, type OutboxState, type OutboxUpdate } from './outbox.table.ts';

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

/**
 * The lanes a query reads, named even when it reads both: the outbox's indexes by state lead by lane
 * (packages/server/src/store/migrations/0011-lane-led-outbox-indexes.ts), and a query by state alone would scan the table.
 */
function lanesOf(lane: OutboxLane | undefined): readonly OutboxLane[] {
  return lane === undefined ? outboxLanes : [lane];
}

/** Oldest first, as an operator works through them; both lanes unless one is named. */
export async function listDead(
  db: StoreDb,
  options: { limit: number; lane?: OutboxLane | undefined } = { limit: 100 },
): Promise<OutboxUpdate[]> {
  const rows = await db
    .selectFrom('outbox')
    .selectAll()
    .where('lane', 'in', lanesOf(options.lane))
    .where('state', '=', 'dead')
    .orderBy('id')
    .limit(options.limit)
    .execute();
  return rows.map(toOutboxUpdate);
}

/**
 * Puts a dead row of either lane back in line, due now, with a fresh attempt budget; its lane's relay takes it. If a
 * later update of its task was delivered meanwhile, this one carries an older sentAt and the platform ignores it
 * (docs/platform.md#statuses-and-transitions); a partner event keeps its webhook id, so a receiver drops a repeat:
 * resending is always safe. Its reason moves to last_error so the history of the failure is kept.
 */
export async function retryDead(db: StoreDb, id: number, now: number): Promise<boolean> {
  const result = await reviveDead(db, now).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Every dead letter of both lanes, or of the one named. */
export async function retryAllDead(db: StoreDb, now: number, lane?: OutboxLane): Promise<number> {
  const result = await reviveDead(db, now).where('lane', 'in', lanesOf(lane)).executeTakeFirst();
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

/**
 * For `/metrics` and `npm run outbox -- status`: both lanes in one statement. Each lane's backlog is counted through
 * that lane's index of pending rows, the dead letters through the index of settled rows. Counting the delivered rows
 * reads the whole delivered history (hundreds of milliseconds at a million rows, docs/deploying.md), so a scrape, which
 * needs only the backlog and the dead letters, passes `delivered: false`.
 */
export async function outboxStatsByLane(
  db: StoreDb,
  now: number,
  options: { delivered?: boolean } = {},
): Promise<Record<OutboxLane, OutboxStats>> {
  const counted = (eb: ExpressionBuilder<DatabaseSchema, 'outbox'>) => [
    eb.fn.countAll<number>().as('count'),
    eb.fn.min('created_at').as('oldest'),
  ];
  const pendingOf = (lane: OutboxLane) =>
    db
      .selectFrom('outbox')
      .select((eb) => [sql<OutboxLane>`${sql.lit(lane)}`.as('lane'), sql<OutboxState>`'pending'`.as('state'), ...counted(eb)])
      .where('lane', '=', lane)
      .where('state', '=', 'pending');
  const settled = db
    .selectFrom('outbox')
    .select((eb) => ['lane', 'state', ...counted(eb)])
    .where('lane', 'in', [...outboxLanes])
    .where('state', 'in', options.delivered === false ? ['dead'] : ['dead', 'delivered'])
    .groupBy(['lane', 'state']);
  const rows = await pendingOf('platform').unionAll(pendingOf('partner')).unionAll(settled).execute();
  const of = (lane: OutboxLane) =>
    statsOf(
      // A lane's pending count is a row even when it is 0 (an aggregate without GROUP BY).
      new Map(
        rows
          .filter((r) => r.lane === lane && Number(r.count) > 0)
          .map((r) => [r.state, { count: Number(r.count), oldest: Number(r.oldest) }]),
      ),
      now,
    );
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
