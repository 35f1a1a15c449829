import type { Kysely, Migration } from 'kysely';

/**
 * Sensitive values (docs/connecting-your-backend.md#sensitive-values): `partner_keys.reveal_sensitive` (1: the key
 * may ask the partner API for clear values, `create --reveal-sensitive`), and `sensitive_reveals`, one row per value
 * revealed: which key, task and field, and when, never the value. An added column with a default and a new table:
 * an expansion that old instances run beside during a rolling upgrade (docs/operations.md#rolling-upgrades).
 */
export const sensitiveReveals: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('partner_keys')
      .addColumn('reveal_sensitive', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('sensitive_reveals')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('key_name', 'text', (col) => col.notNull())
      .addColumn('assigned_task_uuid', 'text', (col) => col.notNull())
      .addColumn('field', 'text', (col) => col.notNull())
      .addColumn('revealed_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sensitive_reveals_at').on('sensitive_reveals').column('revealed_at').execute();
  },
};
