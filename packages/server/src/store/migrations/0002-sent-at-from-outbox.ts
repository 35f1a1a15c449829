import type { Kysely, Migration } from 'kysely';

/**
 * A task's last sentAt is its newest outbox row's (outbox.repository.ts), not a copy kept on the task: the copy was
 * derived state written by the outbox into another table. The index serves the max(sent_at) per task of each enqueue.
 */
export const sentAtFromOutbox: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('outbox_task_sent_at_idx').on('outbox').columns(['task_id', 'sent_at']).execute();
    await db.schema.alterTable('tasks').dropColumn('last_sent_at').execute();
  },
};
