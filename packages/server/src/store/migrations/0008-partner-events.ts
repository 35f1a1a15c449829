import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../database-schema.ts';

/**
 * A second delivery lane in the outbox: events to the partner's own backend (`lane = 'partner'`) beside the updates to
 * the platform (`'platform'`, every row written before). One table keeps the event in the task change's transaction
 * with the same enqueue, lease and retry code (docs/decisions/002-outbox-not-dual-writes.md).
 * Every index the claims use leads by lane, so one lane's backlog is never walked by the other lane's claim, nor by its
 * per-task order check (docs/decisions/003-per-task-order-with-leases.md). The same split per engine as 0006:
 * SQLite uses full indexes, Postgres the partial ones over pending rows.
 */
export function partnerEvents(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('outbox')
        .addColumn('lane', 'text', (column) => column.notNull().defaultTo('platform'))
        .execute();
      if (dialect === 'sqlite') {
        await db.schema.createIndex('outbox_lane_state_id').on('outbox').columns(['lane', 'state', 'id']).execute();
        await db.schema.createIndex('outbox_lane_state_task').on('outbox').columns(['lane', 'state', 'task_id', 'id']).execute();
        await db.schema.dropIndex('outbox_state_id_idx').execute();
        await db.schema.dropIndex('outbox_state_task_idx').execute();
      } else {
        const pending = sql.ref('state');
        await db.schema.createIndex('outbox_pending_lane_id').on('outbox').columns(['lane', 'id']).where(pending, '=', 'pending').execute();
        await db.schema
          .createIndex('outbox_pending_lane_task')
          .on('outbox')
          .columns(['lane', 'task_id', 'id'])
          .where(pending, '=', 'pending')
          .execute();
        await db.schema.dropIndex('outbox_pending_id').execute();
        await db.schema.dropIndex('outbox_pending_task').execute();
      }
    },
  };
}
