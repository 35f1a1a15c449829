import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../database-schema.ts';

/**
 * The first schema. One migration serves both engines (docs/decisions/004-sqlite-by-default-postgres-for-scale.md); the only difference is how an
 * auto-incrementing key is spelled. Migrations are frozen once released: change the schema in a new one.
 */
export function initialSchema(dialect: StoreDialect): Migration {
  // SQLite: INTEGER PRIMARY KEY AUTOINCREMENT never reuses an id, so ids only grow (outbox order relies on it).
  const idType = dialect === 'sqlite' ? 'integer' : 'bigint';
  const id = (col: ColumnDefinitionBuilder) =>
    dialect === 'sqlite' ? col.primaryKey().autoIncrement() : col.primaryKey().generatedByDefaultAsIdentity();

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('tasks')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('assigned_task_uuid', 'text', (col) => col.notNull().unique())
        .addColumn('worker_uuid', 'text', (col) => col.notNull())
        .addColumn('task_flow_uuid', 'text', (col) => col.notNull())
        .addColumn('company_uuid', 'text', (col) => col.notNull())
        .addColumn('workflow_id', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('ready', 'inProgress', 'completed', 'error')`))
        .addColumn('attempt', 'integer', (col) => col.notNull().defaultTo(1))
        .addColumn('current_step', 'text')
        .addColumn('step_data', 'text', (col) => col.notNull().defaultTo('{}'))
        .addColumn('attempt_started_at', 'bigint')
        .addColumn('failed_reason', 'text')
        .addColumn('last_sent_at', 'bigint')
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .addColumn('updated_at', 'bigint', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('task_history')
        .addColumn('id', idType, id)
        .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('attempt', 'integer', (col) => col.notNull())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('step_id', 'text')
        .addColumn('detail', 'text')
        .addColumn('at', 'bigint', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('task_history_task_idx').on('task_history').columns(['task_id', 'id']).execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', idType, id)
        .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('assigned_task_uuid', 'text', (col) => col.notNull())
        .addColumn('payload', 'text', (col) => col.notNull())
        .addColumn('sent_at', 'bigint', (col) => col.notNull())
        .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('pending', 'delivered', 'dead')`))
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('locked_by', 'text')
        .addColumn('last_error', 'text')
        .addColumn('dead_reason', 'text')
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .addColumn('delivered_at', 'bigint')
        .addColumn('dead_at', 'bigint')
        .execute();
      // The claim walks pending rows in id order and stops at its limit (also listDead, and the per-state counts).
      await db.schema.createIndex('outbox_state_id_idx').on('outbox').columns(['state', 'id']).execute();
      // The claim's "no older pending row of the same task" probe: an index range, not a scan of delivered rows.
      await db.schema.createIndex('outbox_state_task_idx').on('outbox').columns(['state', 'task_id', 'id']).execute();
      // listUpdatesForTask, and the foreign key.
      await db.schema.createIndex('outbox_task_idx').on('outbox').columns(['task_id', 'id']).execute();
    },
  };
}
