import type { StoreDb } from './database-schema';

/** Why the database cannot take a write, in words an operator acts on. */
type WriteFailure = 'read-only' | 'disk full' | 'unreachable';

export type WriteProbe = { ok: true } | { ok: false; reason: WriteFailure; detail: string };

/**
 * For readiness (`GET /readyz`): rewrites one heartbeat row, so the probe fails exactly when the server's own writes
 * would (a read-only file or role, a full disk, a database away), where `select 1` would still answer.
 */
export async function probeWrite(db: StoreDb, now: number): Promise<WriteProbe> {
  try {
    await db
      .insertInto('heartbeat')
      .values({ id: 'readiness', beat_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ beat_at: now }))
      .execute();
    return { ok: true };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: classify(error), detail };
  }
}

function classify(error: unknown): WriteFailure {
  const code = String((error as { code?: unknown }).code ?? '');
  // SQLite: SQLITE_READONLY*, SQLITE_FULL; Postgres: 25006 read_only_sql_transaction, 53100 disk_full.
  if (code.startsWith('SQLITE_READONLY') || code === '25006') return 'read-only';
  if (code === 'SQLITE_FULL' || code === '53100') return 'disk full';
  return 'unreachable';
}
