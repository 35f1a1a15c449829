import type { Kysely, Migration } from 'kysely';

/**
 * Files from the worker's phone (docs/api.md#uploads): one row per tus upload, bound to its task and attempt, the step
 * and field it is for. `state` is `uploading` until the last byte, then `completed` with the type read from the bytes,
 * the size and sha256 of the cleaned file. The bytes themselves live in the upload store, never in the database. A new
 * table: an expansion that old instances run beside during a rolling upgrade (docs/operations.md#rolling-upgrades).
 */
export const uploads: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('uploads')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('task_id', 'text', (col) => col.notNull())
      .addColumn('attempt', 'integer', (col) => col.notNull())
      .addColumn('step_id', 'text', (col) => col.notNull())
      .addColumn('field', 'text', (col) => col.notNull())
      .addColumn('declared_bytes', 'bigint', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('content_type', 'text')
      .addColumn('bytes', 'bigint')
      .addColumn('sha256', 'text')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('completed_at', 'bigint')
      .execute();
    await db.schema.createIndex('uploads_task_attempt').on('uploads').columns(['task_id', 'attempt']).execute();
  },
};
