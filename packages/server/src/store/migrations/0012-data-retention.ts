import { sql, type Kysely, type Migration } from 'kysely';

/**
 * What the retention of docs/operations.md#retention needs, the same on both engines:
 *
 * - `tasks.answers_erased_at`: when TASK_DATA_RETENTION_DAYS last erased a finished task's answers, and
 *   `answers_erased_change`: the task's change marker then. Every write of a task gives it a new marker
 *   (task-changes.repository.ts), so a task written again (a new attempt finished) holds answers again; a time would
 *   miss a write within the same millisecond, or by an instance whose clock runs behind.
 * - `tasks_answers_to_erase`: the finished tasks still holding answers, by when they last changed. Partial, so the step
 *   path's writes of a task in progress never touch it, and the job never walks tasks already erased. Its condition is
 *   written with literals: SQLite uses a partial index only when the query repeats the condition word for word.
 * - `tasks_worker`: export and erase find a worker's tasks without reading every task (ids compared without case).
 * - `erasure_log`: who erased a worker's data and when, never whose.
 */
export const dataRetention: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tasks').addColumn('answers_erased_at', 'bigint').execute();
    await db.schema.alterTable('tasks').addColumn('answers_erased_change', 'bigint').execute();
    await db.schema
      .createIndex('tasks_answers_to_erase')
      .on('tasks')
      .column('updated_at')
      .where(sql<boolean>`status in ('completed', 'error') and (answers_erased_change is null or answers_erased_change <> change_seq)`)
      .execute();
    await db.schema
      .createIndex('tasks_worker')
      .on('tasks')
      .expression(sql`lower(worker_uuid)`)
      .execute();
    await db.schema
      .createTable('erasure_log')
      .addColumn('erased_at', 'bigint', (col) => col.notNull())
      .addColumn('erased_by', 'text', (col) => col.notNull())
      .execute();
  },
};
