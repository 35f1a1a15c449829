import { sql } from 'kysely';
import type { StoreDb } from './database-schema.ts';

/*
 * The rows of upload_locks (migrations/0020-upload-locks.ts), one per upload being written or read by a tus request.
 * Each statement is one round trip, outside any transaction: a lock is held for a whole request, never a transaction.
 */

/** Takes the lock of `uploadId` for `holder` when nobody holds it or its lease ran out; true when `holder` has it. */
export async function takeUploadLock(
  db: StoreDb,
  input: { uploadId: string; holder: string; now: number; leaseMs: number },
): Promise<boolean> {
  const { uploadId, holder, now, leaseMs } = input;
  const { rows } = await sql<{ holder: string }>`
    insert into upload_locks (upload_id, holder, expires_at, release_wanted) values (${uploadId}, ${holder}, ${now + leaseMs}, 0)
    on conflict (upload_id) do update set holder = excluded.holder, expires_at = excluded.expires_at, release_wanted = 0
      where upload_locks.expires_at <= ${now}
    returning holder`.execute(db);
  return rows[0]?.holder === holder;
}

/** Asks whoever holds the lock of `uploadId` to let go (tus's `requestRelease`): its holder reads it when it renews. */
export async function wantUploadLock(db: StoreDb, uploadId: string): Promise<void> {
  await db.updateTable('upload_locks').set({ release_wanted: 1 }).where('upload_id', '=', uploadId).execute();
}

/**
 * Extends the lease of a held lock: `held` false when it is not `holder`'s any more (its lease ran out and another took
 * it), `wanted` when another request asked for it.
 */
export async function renewUploadLock(
  db: StoreDb,
  input: { uploadId: string; holder: string; now: number; leaseMs: number },
): Promise<{ held: boolean; wanted: boolean }> {
  const row = await db
    .updateTable('upload_locks')
    .set({ expires_at: input.now + input.leaseMs })
    .where('upload_id', '=', input.uploadId)
    .where('holder', '=', input.holder)
    .returning('release_wanted')
    .executeTakeFirst();
  return { held: row !== undefined, wanted: Number(row?.release_wanted ?? 0) === 1 };
}

export async function releaseUploadLock(db: StoreDb, input: { uploadId: string; holder: string }): Promise<void> {
  await db.deleteFrom('upload_locks').where('upload_id', '=', input.uploadId).where('holder', '=', input.holder).execute();
}
