import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../database-schema.ts';

/**
 * The partner API (`/api/partner/v1/`): its keys, its idempotency records, and a change marker on every task row for
 * the changes feed (task-changes.repository.ts says why the marker is exact on each engine).
 *
 * - `change_xid`: on Postgres the id of the transaction that last wrote the row (`pg_current_xact_id()`); 0 on SQLite,
 *   whose writers are serialized.
 * - `change_seq`: on Postgres from a sequence (no row is shared by concurrent writers); on SQLite one more than the
 *   largest marker ever given, kept past deletions by `task_change_floor`.
 */
export function partnerApi(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('tasks')
        .addColumn('change_xid', 'bigint', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('tasks')
        .addColumn('change_seq', 'bigint', (col) => col.notNull().defaultTo(0))
        .execute();
      if (dialect === 'postgres') {
        await sql`create sequence task_change_seq`.execute(db);
        await sql`update tasks set change_xid = pg_current_xact_id()::text::bigint, change_seq = nextval('task_change_seq')`.execute(db);
      } else {
        await sql`update tasks set change_seq = rowid`.execute(db);
        await db.schema
          .createTable('task_change_floor')
          .addColumn('id', 'text', (col) => col.primaryKey())
          .addColumn('seq', 'bigint', (col) => col.notNull())
          .execute();
        await sql`insert into task_change_floor (id, seq) values ('tasks', coalesce((select max(change_seq) from tasks), 0))`.execute(db);
      }
      // The feed walks markers in order, for every task or for one company's (a key of a tenant).
      await db.schema.createIndex('tasks_change').on('tasks').columns(['change_xid', 'change_seq']).execute();
      await db.schema.createIndex('tasks_company_change').on('tasks').columns(['company_uuid', 'change_xid', 'change_seq']).execute();

      await db.schema
        .createTable('partner_keys')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('prefix', 'text', (col) => col.notNull())
        .addColumn('key_hash', 'text', (col) => col.notNull().unique())
        .addColumn('company_uuid', 'text')
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .addColumn('last_used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      // A name is reused only once its key is revoked: revoked keys stay listed for the record.
      await db.schema
        .createIndex('partner_keys_active_name')
        .on('partner_keys')
        .column('name')
        .unique()
        .where(sql.ref('revoked_at'), 'is', null)
        .execute();

      await db.schema
        .createTable('partner_idempotency')
        .addColumn('partner_key_id', 'text', (col) => col.notNull())
        .addColumn('idempotency_key', 'text', (col) => col.notNull())
        .addColumn('request_hash', 'text', (col) => col.notNull())
        .addColumn('status', 'integer')
        .addColumn('body', 'text')
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .addPrimaryKeyConstraint('partner_idempotency_pk', ['partner_key_id', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('partner_idempotency_created').on('partner_idempotency').column('created_at').execute();
    },
  };
}
