import type { ExpressionBuilder } from 'kysely';
import type { DatabaseSchema, StoreDb } from './database-schema.ts';
import { toOutboxUpdate, type OutboxLane, type OutboxTable, type OutboxUpdate } from './outbox.table.ts';
import { enqueuePartnerEvent, type PartnerEventsGate } from './partner-events.repository.ts';
import { toTask } from './tasks.table.ts';
import { changeMarkerColumns } from './task-changes.repository.ts';

/** Longest error text kept on a row (a platform's answer can be a whole HTML page). */
const MAX_ERROR_LENGTH = 2000;

type OutboxScope = ExpressionBuilder<DatabaseSchema & { o: OutboxTable }, 'o'>;

/**
 * docs/decisions/003-per-task-order-with-leases.md: only the oldest undelivered row of a task may be in flight. Dead
 * rows do not count, nor rows of the other lane: each lane keeps its own order, and neither waits for the other.
 * A scalar subquery rather than NOT EXISTS: Postgres may turn NOT EXISTS into a join that, when it believes few rows
 * are pending, compares each candidate with every pending row; a subquery is run per candidate through the per-task
 * index (docs/operations.md#the-claim-and-the-planner).
 */
function isOldestPendingOfTask(eb: OutboxScope) {
  const oldest = eb
    .selectFrom('outbox as older')
    .select((inner) => inner.fn.min('older.id').as('oldest'))
    .whereRef('older.lane', '=', 'o.lane')
    .where('older.state', '=', 'pending')
    .whereRef('older.task_id', '=', 'o.task_id');
  return eb('o.id', '=', oldest);
}

/** 1 for a row whose task the platform never accepted, 0 for one it did: probes come from the latter first. */
function neverConfirmedTask(eb: OutboxScope) {
  return eb
    .selectFrom('tasks as t')
    .select((inner) => inner.case().when('t.confirmed_at', 'is', null).then(1).else(0).end().as('never'))
    .whereRef('t.id', '=', 'o.task_id');
}

/**
 * Leases up to `limit` deliverable rows, oldest first, at most one per task. On Postgres `FOR UPDATE SKIP LOCKED`
 * lets several server processes claim from one outbox without waiting on each other; the outer update re-checks
 * the lease, so two claimers never both get a row on either engine. It does not repeat `state = 'pending'`: the
 * candidates are locked (Postgres) or the statement runs alone (SQLite), so their state cannot change in between,
 * and that condition would let Postgres, when it believes few rows are pending, find the ids by walking an index of
 * pending rows instead of the primary key (docs/operations.md#the-claim-and-the-planner).
 * The candidates are a MATERIALIZED CTE, evaluated once: as a plain `id IN (subquery)`, Postgres may rescan the
 * locking subquery per outer row (a nested-loop semi join) and each rescan's LIMIT picks other rows, exceeding `limit`.
 */
export async function claimDeliverable(
  db: StoreDb,
  options: {
    now: number;
    leaseMs: number;
    limit: number;
    workerId: string;
    /**
     * Also rows still backing off, those of tasks the platform accepted before first, then the one whose next try is
     * soonest (a probe while the platform is away).
     */
    anyDueTime?: boolean;
    /** Only these companies' rows (lower case), e.g. those with a credential and no open circuit; undefined: all. */
    companies?: readonly string[] | undefined;
    /** Whose rows: each lane's relay claims its own (the platform's by default). */
    lane?: OutboxLane;
  },
): Promise<OutboxUpdate[]> {
  const { now, leaseMs, limit, workerId, anyDueTime = false, companies, lane = 'platform' } = options;
  if (companies !== undefined && companies.length === 0) return [];
  const rows = await db
    .with(
      (cte) => cte('claimable').materialized(),
      (qb) =>
        qb
          .selectFrom('outbox as o')
          .select('o.id')
          .where('o.lane', '=', lane)
          .where('o.state', '=', 'pending')
          .$if(!anyDueTime, (qb) => qb.where('o.next_attempt_at', '<=', now))
          .where((eb) => eb.or([eb('o.locked_until', 'is', null), eb('o.locked_until', '<', now)]))
          .$if(companies !== undefined, (qb) => qb.where('o.company_uuid', 'in', companies!))
          .where(isOldestPendingOfTask)
          .$if(anyDueTime, (qb) => qb.orderBy(neverConfirmedTask).orderBy('o.next_attempt_at'))
          .orderBy('o.id')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
    )
    .updateTable('outbox')
    .set({ locked_until: now + leaseMs, locked_by: workerId })
    .where('id', 'in', (eb) => eb.selectFrom('claimable').select('claimable.id'))
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .returningAll()
    .execute();
  return rows.map(toOutboxUpdate).sort((a, b) => a.id - b.id);
}

/**
 * The rows `workerId` still leases, among `ids`: only the lease holder may settle a row, so a relay whose lease expired
 * and was taken over by another changes nothing (docs/decisions/003-per-task-order-with-leases.md). The caller adds what to set.
 */
function leasedRows(db: StoreDb, ids: readonly number[], workerId: string) {
  return db.updateTable('outbox').where('id', 'in', ids).where('state', '=', 'pending').where('locked_by', '=', workerId);
}

const LEASE_CLEARED = { locked_until: null, locked_by: null } as const;

/**
 * Settles many delivered rows in one statement: the relay batches them so one commit (one fsync) covers every
 * delivery that finished since the last one. Returns the ids actually settled.
 */
export async function markManyDelivered(
  db: StoreDb,
  ids: readonly number[],
  options: { now: number; workerId: string },
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await leasedRows(db, ids, options.workerId)
    .set({ state: 'delivered', delivered_at: options.now, ...LEASE_CLEARED })
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** The row stays pending, so the task's later rows keep waiting behind it (per-task order, docs/decisions/003-per-task-order-with-leases.md). */
export async function scheduleRetry(
  db: StoreDb,
  id: number,
  options: { workerId: string; nextAttemptAt: number; error: string; refused?: boolean },
): Promise<boolean> {
  const result = await leasedRows(db, [id], options.workerId)
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      ...(options.refused ? { refusals: eb('refusals', '+', 1) } : {}),
      next_attempt_at: options.nextAttemptAt,
      last_error: options.error.slice(0, MAX_ERROR_LENGTH),
      ...LEASE_CLEARED,
    }))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Called after the attempt that failed for good (e.g. a 4xx other than 401, docs/architecture.md#the-path-of-an-update): that attempt counts. */
export async function markDead(db: StoreDb, id: number, options: { workerId: string; now: number; reason: string }): Promise<boolean> {
  const result = await leasedRows(db, [id], options.workerId)
    .set((eb) => ({
      state: 'dead',
      attempts: eb('attempts', '+', 1),
      dead_at: options.now,
      dead_reason: options.reason.slice(0, MAX_ERROR_LENGTH),
      ...LEASE_CLEARED,
    }))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A claimed row that nothing may deliver now (its company lost its credential): back in line, no attempt counted. */
export async function releaseLease(db: StoreDb, id: number, workerId: string): Promise<boolean> {
  const result = await leasedRows(db, [id], workerId).set(LEASE_CLEARED).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Claimed rows put back in line unsent, no attempt counted: the relay took more of a tenant's rows than its share of
 * the slots (packages/server/src/delivery/slot-shares.ts). Returns how many this worker still held.
 */
export async function putBackClaims(db: StoreDb, ids: readonly number[], workerId: string): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await leasedRows(db, ids, workerId).set(LEASE_CLEARED).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The platform is the only authority on task ids (docs/decisions/008-a-deputy-for-many-companies.md): a task it keeps refusing is marked rejected and
 * its undelivered updates become dead letters, so nothing more is sent for it. Only the holder of the refused row's
 * lease may do it. Returns false when the lease was lost meanwhile.
 */
export function rejectTask(
  db: StoreDb,
  input: { taskId: string; updateId: number; workerId: string; now: number; reason: string; partnerEvents?: PartnerEventsGate },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const held = await leasedRows(trx, [input.updateId], input.workerId).set(LEASE_CLEARED).executeTakeFirst();
    if (held.numUpdatedRows === 0n) return false;
    const reason = input.reason.slice(0, MAX_ERROR_LENGTH);
    const task = await trx
      .updateTable('tasks')
      .set({ rejected_at: input.now, rejected_reason: reason, ...changeMarkerColumns(trx) })
      .where('id', '=', input.taskId)
      .returningAll()
      .executeTakeFirst();
    // Only the platform's rows die: the partner's backend still hears of the task, its rejection included.
    await trx
      .updateTable('outbox')
      .set({ state: 'dead', dead_at: input.now, dead_reason: `task rejected: ${reason}`, ...LEASE_CLEARED })
      .where('task_id', '=', input.taskId)
      .where('lane', '=', 'platform')
      .where('state', '=', 'pending')
      .execute();
    if (task && input.partnerEvents?.(task.company_uuid)) {
      await enqueuePartnerEvent(trx, { task: toTask(task), type: 'task.rejected', now: input.now });
    }
    return true;
  });
}

/** On graceful shutdown: rows this worker holds become claimable at once instead of after the lease. */
export async function releaseLeases(db: StoreDb, workerId: string): Promise<number> {
  const result = await db
    .updateTable('outbox')
    .set(LEASE_CLEARED)
    .where('state', '=', 'pending')
    .where('locked_by', '=', workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * When `claimDeliverable` could next return a row (absent new enqueues), so the relay can sleep exactly until then:
 * the earliest due time among rows at the head of their task, pushed past a lease that outlives it. Rows queued
 * behind an older pending row do not count: they cannot be claimed before it settles. Null when nothing is pending.
 */
export async function nextDueAt(db: StoreDb, companies?: readonly string[], lane: OutboxLane = 'platform'): Promise<number | null> {
  if (companies !== undefined && companies.length === 0) return null;
  const row = await db
    .selectFrom('outbox as o')
    .select((eb) =>
      eb.fn
        .min(
          eb
            .case()
            .when(eb.and([eb('o.locked_until', 'is not', null), eb('o.locked_until', '>=', eb.ref('o.next_attempt_at'))]))
            .then(eb('o.locked_until', '+', 1))
            .else(eb.ref('o.next_attempt_at'))
            .end(),
        )
        .as('due'),
    )
    .where('o.lane', '=', lane)
    .where('o.state', '=', 'pending')
    .$if(companies !== undefined, (qb) => qb.where('o.company_uuid', 'in', companies!))
    .where(isOldestPendingOfTask)
    .executeTakeFirst();
  return row?.due ?? null;
}

/**
 * After an outage the platform is back: every row waiting out its own backoff is due now, so the backlog drains at
 * delivery speed instead of at the pace of each row's backoff. Returns how many rows were brought forward.
 */
export async function bringRetriesForward(
  db: StoreDb,
  now: number,
  companies?: ReadonlySet<string>,
  lane: OutboxLane = 'platform',
): Promise<number> {
  if (companies !== undefined && companies.size === 0) return 0;
  const result = await db
    .updateTable('outbox')
    .set({ next_attempt_at: now })
    .where('lane', '=', lane)
    .where('state', '=', 'pending')
    .$if(companies !== undefined, (qb) => qb.where('company_uuid', 'in', [...companies!]))
    .where('attempts', '>', 0)
    // A task's own refusals keep their pace: bringing them forward would shorten a late task's grace.
    .where('refusals', '=', 0)
    .where('next_attempt_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
