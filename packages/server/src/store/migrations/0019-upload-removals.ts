import { sql, type Kysely, type Migration } from 'kysely';

/**
 * What lets a worker's files follow their data (docs/operations.md#files):
 * - `uploads.saved_at`: when a saved step first named the upload. One never named is removed 24 hours after its
 *   creation; one named is kept as long as its task's answers, whatever a later step, Back or a new attempt does with
 *   the stored answers (an event already told the partner of it). A mark, not a search of the step data: a sensitive
 *   field's id is sealed there, and a new attempt starts with none of the old one's answers.
 * - the state `removing`: the upload's task was erased, released or purged, or its answers expired, or it was never
 *   named: its bytes are being removed, then its row. Marked in the transaction that decides it, so a crash between
 *   leaves a row that the next run of the retention job (or the same command) finds, never bytes that nothing names.
 * Uploads completed before this migration count as named: what a step may have accepted is not removed by guess.
 * A nullable column and two partial indexes on a table that is new in the same release: an expansion
 * (docs/operations.md#rolling-upgrades).
 */
export const uploadRemovals: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('uploads').addColumn('saved_at', 'bigint').execute();
    await sql`update uploads set saved_at = completed_at where state = 'completed'`.execute(db);
    await db.schema
      .createIndex('uploads_unsaved')
      .on('uploads')
      .column('created_at')
      .where(sql<boolean>`saved_at is null`)
      .execute();
    await db.schema
      .createIndex('uploads_removing')
      .on('uploads')
      .column('task_id')
      .where(sql<boolean>`state = 'removing'`)
      .execute();
  },
};
