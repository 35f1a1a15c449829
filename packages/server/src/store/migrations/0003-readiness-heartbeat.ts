import type { Kysely, Migration } from 'kysely';

/** One row that readiness rewrites: a probe that writes fails exactly when the server's own writes would. */
export const readinessHeartbeat: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('heartbeat')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('beat_at', 'bigint', (col) => col.notNull())
      .execute();
  },
};
