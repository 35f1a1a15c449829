import type { StoreDb } from './database-schema';

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
 * so is a claim left unanswered since `abandonedBefore` (its request died).
 * Returns whether this request claimed it.
 */
export async function claimIdempotencyKey(
  db: StoreDb,
  input: IdempotencyId & { requestHash: string; now: number; expiresBefore: number; abandonedBefore: number },
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
    })
    .onConflict((oc) =>
      oc
        .columns(['partner_key_id', 'idempotency_key'])
        .doUpdateSet({ request_hash: input.requestHash, status: null, body: null, created_at: input.now })
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

/** Keeps the answer given to the request that claimed the key. */
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

export async function deleteIdempotencyRecordsBefore(db: StoreDb, before: number): Promise<number> {
  const result = await db.deleteFrom('partner_idempotency').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
