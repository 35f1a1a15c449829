import { randomUUID } from 'node:crypto';
import type { StoreDb } from './database-schema.ts';
import { toPartnerKey, type PartnerKey } from './partner-keys.table.ts';

/** Stores a new key's hash; refused when an active key already has the name. */
export async function insertPartnerKey(
  db: StoreDb,
  input: { name: string; prefix: string; keyHash: string; companyUuid: string | null; revealSensitive?: boolean; now: number },
): Promise<{ ok: true; key: PartnerKey } | { ok: false; reason: 'name_taken' }> {
  const row = await db
    .insertInto('partner_keys')
    .values({
      id: randomUUID(),
      name: input.name,
      prefix: input.prefix,
      key_hash: input.keyHash,
      company_uuid: input.companyUuid,
      reveal_sensitive: input.revealSensitive === true ? 1 : 0,
      created_at: input.now,
      last_used_at: null,
      revoked_at: null,
    })
    .onConflict((oc) => oc.column('name').where('revoked_at', 'is', null).doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? { ok: true, key: toPartnerKey(row) } : { ok: false, reason: 'name_taken' };
}

/** The key a request presents, found by its hash; a revoked key is not found. */
export async function findActivePartnerKey(db: StoreDb, keyHash: string): Promise<PartnerKey | undefined> {
  const row = await db
    .selectFrom('partner_keys')
    .selectAll()
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && toPartnerKey(row);
}

/** Every key, revoked ones included, oldest first. */
export async function listPartnerKeys(db: StoreDb): Promise<PartnerKey[]> {
  const rows = await db.selectFrom('partner_keys').selectAll().orderBy('created_at').orderBy('name').execute();
  return rows.map(toPartnerKey);
}

export async function revokePartnerKey(db: StoreDb, name: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('partner_keys')
    .set({ revoked_at: now })
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records a use, unless one was recorded within `intervalMs`: instances sharing the database write at most about once
 * per interval per key, and a request that finds it recent writes nothing.
 */
export async function touchPartnerKey(db: StoreDb, input: { id: string; now: number; intervalMs: number }): Promise<void> {
  await db
    .updateTable('partner_keys')
    .set({ last_used_at: input.now })
    .where('id', '=', input.id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', input.now - input.intervalMs)]))
    .execute();
}
