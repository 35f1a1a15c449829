import type { Kysely, Migration } from 'kysely';

/**
 * Who is writing to an upload now (packages/server/src/uploads/upload-locker.ts): tus allows one request at a time per upload, and
 * with several instances on one bucket the next request of a phone may reach another instance than the one still
 * reading the last. One row per held lock: its holder (one request), the end of its lease (renewed while held, so an
 * instance that died frees its locks) and whether another request is waiting for it. A new table: an expansion
 * (docs/operations.md#rolling-upgrades).
 */
export const uploadLocks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('upload_locks')
      .addColumn('upload_id', 'text', (col) => col.primaryKey())
      .addColumn('holder', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .addColumn('release_wanted', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  },
};
