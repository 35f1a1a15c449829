import type { Selectable } from 'kysely';

/** Keys of the partner API (`npm run partner-keys`). Only a hash of each key is stored; the key is shown once. */
export interface PartnerKeysTable {
  id: string;
  /** The operator's label, unique among keys not revoked. */
  name: string;
  /** The key's first characters, to recognise it in a list or a log without holding the key. */
  prefix: string;
  /** SHA-256 of the whole key, hex. */
  key_hash: string;
  /** The one company whose tasks the key sees; null: every task (only outside tenant mode). */
  company_uuid: string | null;
  /** 1: the key may ask for sensitive values in clear (`create --reveal-sensitive`); 0: it sees them masked. */
  reveal_sensitive: number;
  created_at: number;
  /** Written at most once a minute per key, never on every request. */
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface PartnerKey {
  id: string;
  name: string;
  prefix: string;
  companyUuid: string | null;
  /** The key may ask `?reveal=sensitive` (docs/connecting-your-backend.md#sensitive-values). */
  revealSensitive: boolean;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export function toPartnerKey(row: Selectable<PartnerKeysTable>): PartnerKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    companyUuid: row.company_uuid,
    revealSensitive: Number(row.reveal_sensitive) === 1,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/** One answer of the partner API kept for its `Idempotency-Key`, for 24 hours (docs/connecting-your-backend.md#partner-api). */
export interface PartnerIdempotencyTable {
  partner_key_id: string;
  idempotency_key: string;
  /** SHA-256 of the method, path and body: the same key with another request is refused. */
  request_hash: string;
  /** Null while the first request with this key is still being answered. */
  status: number | null;
  /** JSON text of the answer's body. */
  body: string | null;
  created_at: number;
  /**
   * The assigned task the request names, as `tasks.assigned_task_key` (lower case), written with the claim: erasing,
   * releasing or purging the task deletes its answers by it (migrations/0015-partner-answers-by-task.ts). Null only
   * in rows written by a version before it.
   */
  task_key: string | null;
}
