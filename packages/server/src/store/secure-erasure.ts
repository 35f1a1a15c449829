import { sql, SqliteAdapter } from 'kysely';
import type { StoreDb } from './database-schema.ts';

/**
 * Runs `work` in one short transaction whose deletions and rewrites leave no copy of the erased values in the file
 * (docs/operations.md#erasure). On SQLite, `secure_delete` is ON for this transaction only: the pages it frees are
 * zeroed too, which costs a write of each freed page, so the connection's default stays FAST (sqlite-dialect.ts),
 * which zeroes the freed space inside pages. The WAL still holds the old frames until `Store.truncateWal`. On Postgres
 * a deleted row is unreadable at once and its bytes stay until vacuum and later writes reuse the space.
 */
export function eraseInTransaction<T>(db: StoreDb, work: (trx: StoreDb) => Promise<T>): Promise<T> {
  const erase = async (trx: StoreDb) => {
    if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) return work(trx);
    // The connection is the server's only one: back to FAST before another unit of work gets it.
    await sql`pragma secure_delete = on`.execute(trx);
    try {
      return await work(trx);
    } finally {
      await sql`pragma secure_delete = fast`.execute(trx);
    }
  };
  // A caller that owns a transaction already (docs/architecture.md#one-row-conversion) has it joined.
  return db.isTransaction ? erase(db) : db.transaction().execute(erase);
}
