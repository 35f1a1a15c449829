import type { StoreDb } from './database-schema.ts';

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
  return databaseFailureOf(error) ?? 'unreachable';
}

/** pg's own messages for a connection lost or never made; they carry no code. */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];

/**
 * Whether an error says the database cannot serve right now (away, read-only, full, busy) rather than that our query
 * is wrong: the first is answered 503 and heals by itself, the second is a bug (500). Undefined for the second.
 */
export function databaseFailureOf(error: unknown): WriteFailure | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = String((error as { code?: unknown }).code ?? '');
  // SQLite: SQLITE_READONLY*, SQLITE_FULL; Postgres: 25006 read_only_sql_transaction, 53100 disk_full.
  if (code.startsWith('SQLITE_READONLY') || code === '25006') return 'read-only';
  if (code === 'SQLITE_FULL' || code === '53100') return 'disk full';
  // SQLite: an I/O error, a lock held past busy_timeout, a file that cannot be opened. Postgres: class 08 (connection
  // exception), 57P01-57P03 (shut down, crashed, starting), 53300 (too many connections). Node: the socket failed.
  if (/^SQLITE_(IOERR|BUSY|CANTOPEN|LOCKED)/.test(code)) return 'unreachable';
  if (/^(08...|57P0[123]|53300)$/.test(code)) return 'unreachable';
  if (/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|EAI_AGAIN)$/.test(code)) return 'unreachable';
  if (error instanceof AggregateError && error.errors.some((inner) => databaseFailureOf(inner) !== undefined)) return 'unreachable';
  if (PG_CONNECTION_MESSAGES.some((message) => error.message.includes(message))) return 'unreachable';
  return undefined;
}
