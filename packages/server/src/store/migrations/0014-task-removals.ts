import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../database-schema.ts';

/**
 * `task_removals`: a task deleted (a worker's data erased, a binding released, an unconfirmed task purged) leaves a
 * row here, with a change marker taken as any task write takes one, so the changes feed tells the partner's backend
 * to drop its copy (docs/connecting-your-backend.md#partner-api). It holds our id of the task, the platform's assigned task id and the
 * company: nothing of the worker. Kept REMOVALS_KEPT_DAYS (task-changes.repository.ts), then deleted by retention.
 *
 * On SQLite, the next marker is one more than the largest in either table or in `task_change_floor`.
 */
export function taskRemovals(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('task_removals')
        .addColumn('task_id', 'text', (col) => col.notNull())
        .addColumn('assigned_task_uuid', 'text', (col) => col.notNull())
        .addColumn('company_uuid', 'text', (col) => col.notNull())
        .addColumn('reason', 'text', (col) => col.notNull())
        .addColumn('removed_at', 'bigint', (col) => col.notNull())
        .addColumn('change_xid', 'bigint', (col) => col.notNull())
        .addColumn('change_seq', 'bigint', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('task_removals_change').on('task_removals').columns(['change_xid', 'change_seq']).execute();
      await db.schema
        .createIndex('task_removals_company_change')
        .on('task_removals')
        .columns(['company_uuid', 'change_xid', 'change_seq'])
        .execute();
      await db.schema.createIndex('task_removals_removed').on('task_removals').column('removed_at').execute();
      if (dialect === 'sqlite') {
        // The floor keeps the largest marker given; from now on it also covers the removals' markers.
        await sql`update task_change_floor set seq = max(seq, coalesce((select max(change_seq) from tasks), 0)) where id = 'tasks'`.execute(
          db,
        );
      }
    },
  };
}
