import type { Kysely, Migration } from 'kysely';
import type { StoreDialect } from '../database-schema.ts';

/**
 * Every index of the outbox is written on each enqueue and again when the row is delivered; the step endpoint and the
 * relay paid for eight. Kept: the ones each engine's planner uses (EXPLAIN QUERY PLAN / EXPLAIN of every outbox query).
 * - Both: a task's last sentAt is read from its newest row by id (sentAt grows with id per task, outbox.repository.ts),
 *   so (task_id, sent_at) goes and (task_id, id) serves it.
 * - SQLite never picks the partial indexes over pending rows: its statements bind `state` as a parameter, and SQLite
 *   uses a partial index only when the query's WHERE implies the index's at prepare time. (state, id) and
 *   (state, task_id, id) serve its claims.
 * - Postgres plans with the bound values and uses the partial indexes for claims and the per-task order check, so
 *   (state, task_id, id) goes; (state, id) stays for dead letters and the counts by state.
 * A task's history is read one attempt at a time: (task_id, id) becomes (task_id, attempt, id), same cost per write.
 */
export function fewerOutboxIndexes(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('outbox_task_sent_at_idx').execute();
      if (dialect === 'sqlite') {
        await db.schema.dropIndex('outbox_pending_id').execute();
        await db.schema.dropIndex('outbox_pending_task').execute();
      } else {
        await db.schema.dropIndex('outbox_state_task_idx').execute();
      }
      await db.schema.createIndex('task_history_attempt_idx').on('task_history').columns(['task_id', 'attempt', 'id']).execute();
      await db.schema.dropIndex('task_history_task_idx').execute();
    },
  };
}
