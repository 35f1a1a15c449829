import type { Kysely, Migration } from 'kysely';

/**
 * `task_offers`: the offer the partner's backend gave for a task's step (docs/connecting-your-backend.md#offers), kept
 * so that a reload shows the same one and the worker's answer is checked against what they were shown. One per step
 * of a task: `attempt` and `basis` (a hash of the answers it was loaded for) tell whether it still holds. Deleted
 * with its task.
 */
export const taskOffers: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('task_offers')
      .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
      .addColumn('step_id', 'text', (col) => col.notNull())
      .addColumn('attempt', 'integer', (col) => col.notNull())
      .addColumn('basis', 'text', (col) => col.notNull())
      .addColumn('offer', 'text', (col) => col.notNull())
      .addColumn('loaded_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('task_offers_pk', ['task_id', 'step_id'])
      .execute();
  },
};
