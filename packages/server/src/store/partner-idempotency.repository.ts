import { sql, type ExpressionBuilder } from 'kysely';
import type { DatabaseSchema, StoreDb } from './database-schema.ts';

/** docs/api.md, "Partner API": an Idempotency-Key and its answer are kept 24 hours. */
export const IDEMPOTENCY_KEPT_MS = 24 * 60 * 60_000;

export interface IdempotencyRecord {
  requestHash: string;
  /** Null while the first request is still being answered. */
  answer: { status: number; body: unknown } | null;
}

interface IdempotencyId {
  partnerKeyId: string;
  idempotencyKey: string;
}

/**
 * Takes the key for this request, unless a record younger than `expiresBefore` holds it: the first request of a key
 * claims it before doing anything, so two copies sent at once do the work once. An expired record is taken over, and
 * so is a claim left unanswered since `abandonedBefore` (its request died). The claim names the task (`taskKey`)
 * before the work reads it, so an erasure of the task that runs meanwhile deletes the claim, and its answer is never
 * stored. Returns whether this request claimed it.
 */
export async function claimIdempotencyKey(
  db: StoreDb,
  input: IdempotencyId & { taskKey: string; requestHash: string; now: number; expiresBefore: number; abandonedBefore: number },
): Promise<boolean> {
  const row = await db
    .insertInto('partner_idempotency')
    .values({
      partner_key_id: input.partnerKeyId,
      idempotency_key: input.idempotencyKey,
      request_hash: input.requestHash,
      status: null,
      body: null,
      created_at: input.now,
      task_key: input.taskKey,
    })
    .onConflict((oc) =>
      oc
        .columns(['partner_key_id', 'idempotency_key'])
        .doUpdateSet({ request_hash: input.requestHash, status: null, body: null, created_at: input.now, task_key: input.taskKey })
        .where((eb) =>
          eb.or([
            eb('partner_idempotency.created_at', '<', input.expiresBefore),
            eb.and([eb('partner_idempotency.status', 'is', null), eb('partner_idempotency.created_at', '<', input.abandonedBefore)]),
          ]),
        ),
    )
    .returning('created_at')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findIdempotencyRecord(db: StoreDb, id: IdempotencyId): Promise<IdempotencyRecord | undefined> {
  const row = await db
    .selectFrom('partner_idempotency')
    .select(['request_hash', 'status', 'body'])
    .where('partner_key_id', '=', id.partnerKeyId)
    .where('idempotency_key', '=', id.idempotencyKey)
    .executeTakeFirst();
  if (!row) return undefined;
  const answer =
    row.status === null ? null : { status: Number(row.status), body: row.body === null ? null : (JSON.parse(row.body) as unknown) };
  return { requestHash: row.request_hash, answer };
}

/** Keeps the answer given to the request that claimed the key; nothing when the claim is gone (its task erased). */
export async function completeIdempotencyKey(db: StoreDb, id: IdempotencyId & { status: number; body: unknown }): Promise<void> {
  await db
    .updateTable('partner_idempotency')
    .set({ status: id.status, body: JSON.stringify(id.body) })
    .where('partner_key_id', '=', id.partnerKeyId)
    .where('idempotency_key', '=', id.idempotencyKey)
    .execute();
}

/** The claiming request failed on our side (a 5xx): nothing was done, so a retry with the key may try again. */
export async function releaseIdempotencyKey(db: StoreDb, id: IdempotencyId): Promise<void> {
  await db
    .deleteFrom('partner_idempotency')
    .where('partner_key_id', '=', id.partnerKeyId)
    .where('idempotency_key', '=', id.idempotencyKey)
    .where('status', 'is', null)
    .execute();
}

/**
 * Up to `limit` records older than `before` (past their 24 hours: a claim takes them over as new), for the retention
 * job (docs/operations.md#retention), in the order of the index partner_idempotency_created. Returns how many.
 */
export async function deleteExpiredIdempotencyRecords(db: StoreDb, input: { before: number; limit: number }): Promise<number> {
  const result = await db
    .deleteFrom('partner_idempotency')
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('partner_key_id', 'idempotency_key'),
        'in',
        selectFrom('partner_idempotency')
          .select(['partner_key_id', 'idempotency_key'])
          .where('created_at', '<', input.before)
          .orderBy('created_at')
          .limit(input.limit)
          .$asTuple('partner_key_id', 'idempotency_key'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** At most this many task keys in one statement: the callers pass them in chunks. */
export const TASK_KEYS_PER_STATEMENT = 100;

/**
 * The records about these tasks (keys as `tasks.assigned_task_key`, at most TASK_KEYS_PER_STATEMENT): by `task_key`,
 * and, for a record written without one (by a version before migrations/0015-partner-answers-by-task.ts, still
 * serving during a rolling upgrade), by the task its answer holds: `"assignedTaskUuid":"…"` in its JSON.
 */
function aboutTasks(eb: ExpressionBuilder<DatabaseSchema, 'partner_idempotency'>, taskKeys: readonly string[]) {
  return eb.or([
    eb('task_key', 'in', taskKeys),
    eb.and([
      eb('task_key', 'is', null),
      eb('status', '=', 200),
      // The keys are UUIDs in lower case (the session route takes no other id): no LIKE wildcard among them.
      eb.or(taskKeys.map((key) => sql<boolean>`lower(body) like ${`%"assignedtaskuuid":"${key}"%`}`)),
    ]),
  ]);
}

/** The answers stored about these tasks (at most TASK_KEYS_PER_STATEMENT keys), oldest first, for an export. */
export async function listAnswersAboutTasks(
  db: StoreDb,
  taskKeys: readonly string[],
): Promise<{ status: number; body: unknown; createdAt: number }[]> {
  if (taskKeys.length === 0) return [];
  const rows = await db
    .selectFrom('partner_idempotency')
    .select(['status', 'body', 'created_at'])
    .where((eb) => aboutTasks(eb, taskKeys))
    .where('status', 'is not', null)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    status: Number(row.status),
    body: row.body === null ? null : (JSON.parse(row.body) as unknown),
    createdAt: Number(row.created_at),
  }));
}

/**
 * Deletes the records about these tasks (at most TASK_KEYS_PER_STATEMENT keys), answered or still claimed, up to
 * `limit` of them when given. Returns how many.
 */
export async function deleteAnswersAboutTasks(db: StoreDb, taskKeys: readonly string[], limit?: number): Promise<number> {
  if (taskKeys.length === 0) return 0;
  const result = await db
    .deleteFrom('partner_idempotency')
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('partner_key_id', 'idempotency_key'),
        'in',
        selectFrom('partner_idempotency')
          .select(['partner_key_id', 'idempotency_key'])
          .where((inner) => aboutTasks(inner, taskKeys))
          .$if(limit !== undefined, (query) => query.limit(limit!))
          .$asTuple('partner_key_id', 'idempotency_key'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
