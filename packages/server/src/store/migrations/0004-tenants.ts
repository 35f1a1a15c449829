import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Tenants (one credential per client company, docs/platform.md#authentication: each client creates its own integration and keys), the
 * companies refused for lack of one, and each update's company on the outbox, so the relay can hold or probe one
 * company's updates without a join.
 */
export const tenants: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('tenants')
      .addColumn('company_uuid', 'text', (col) => col.primaryKey())
      .addColumn('api_key', 'text', (col) => col.notNull())
      // AES-256-GCM of the Secret under CREDENTIALS_KEY: never the Secret itself.
      .addColumn('sealed_secret', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('rotated_at', 'bigint')
      .execute();
    // One row changes whenever a tenant does, removals included: a running server compares it to notice a change.
    await db.schema
      .createTable('tenants_revision')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('revision', 'bigint', (col) => col.notNull())
      .execute();
    // A flow designer who cannot edit the iframe URL still gets the right workflow: the tenant maps its flow to one.
    await db.schema
      .createTable('flow_workflows')
      .addColumn('company_uuid', 'text', (col) => col.notNull())
      .addColumn('task_flow_uuid', 'text', (col) => col.notNull())
      .addColumn('workflow_id', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('flow_workflows_pk', ['company_uuid', 'task_flow_uuid'])
      .execute();
    await db.schema
      .createTable('pending_companies')
      .addColumn('company_uuid', 'text', (col) => col.primaryKey())
      .addColumn('refusals', 'bigint', (col) => col.notNull())
      .addColumn('first_seen_at', 'bigint', (col) => col.notNull())
      .addColumn('last_seen_at', 'bigint', (col) => col.notNull())
      .execute();
    // Rate-limit counters shared by the instances of one Postgres database (SQLite runs one instance: in memory).
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('window_start', 'bigint', (col) => col.notNull())
      .addColumn('count', 'integer', (col) => col.notNull())
      .execute();
    await db.schema.alterTable('outbox').addColumn('company_uuid', 'text').execute();
    // How many times the platform refused this update as unknown or forbidden (404/403) while it took others.
    await db.schema
      .alterTable('outbox')
      .addColumn('refusals', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    // The platform is the only authority on task ids: a task it refuses is marked, and costs nothing more.
    await db.schema.alterTable('tasks').addColumn('rejected_at', 'bigint').execute();
    await db.schema.alterTable('tasks').addColumn('rejected_reason', 'text').execute();
    // Who opened the task (a hash of the client address), to bound how many tasks one address or company creates.
    await db.schema.alterTable('tasks').addColumn('opened_from', 'text').execute();
    await db.schema.createIndex('tasks_opened_from').on('tasks').columns(['opened_from', 'created_at']).execute();
    await db.schema.createIndex('tasks_company_created').on('tasks').columns(['company_uuid', 'created_at']).execute();
    await sql`update outbox set company_uuid = (select lower(company_uuid) from tasks where tasks.id = outbox.task_id)`.execute(db);
    await db.schema.createIndex('outbox_pending_company').on('outbox').columns(['company_uuid', 'state']).execute();
  },
};
