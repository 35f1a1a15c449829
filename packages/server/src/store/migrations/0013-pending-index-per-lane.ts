import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../database-schema.ts';

/**
 * Postgres only: outbox indexes whose plans hold when the planner's statistics are wrong, as they are on a table
 * never analyzed and, after an outage, on one last analyzed when nothing was pending
 * (docs/operations.md#the-claim-and-the-planner). The rule: for each query exactly one index fits.
 * - Each lane's pending rows get partial indexes of their own, in id order and by company: the claims' walk matches
 *   their condition exactly, so no estimate makes walking the primary key (every delivered row) look cheaper.
 * - The claim's per-task order check names the lane by the candidate's column, so those per-lane indexes cannot
 *   serve it, and the index of settled rows excludes pending ones: (lane, task_id, id) over pending rows is the one
 *   index left that fits it.
 * - Settled rows (delivered and dead) keep (lane, state, id) for the dead letters, the retention job and the counts.
 */
export function pendingIndexPerLane(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') return;
      for (const lane of ['platform', 'partner'] as const) {
        const pendingOfLane = sql<boolean>`state = 'pending' and lane = ${sql.lit(lane)}`;
        await db.schema.createIndex(`outbox_pending_${lane}_id`).on('outbox').column('id').where(pendingOfLane).execute();
        await db.schema
          .createIndex(`outbox_pending_${lane}_company`)
          .on('outbox')
          .columns(['company_uuid', 'id'])
          .where(pendingOfLane)
          .execute();
      }
      await db.schema
        .createIndex('outbox_settled_lane_state_id')
        .on('outbox')
        .columns(['lane', 'state', 'id'])
        .where(sql.ref('state'), '<>', 'pending')
        .execute();
      await db.schema.dropIndex('outbox_pending_lane_id').execute();
      await db.schema.dropIndex('outbox_pending_lane_company').execute();
      await db.schema.dropIndex('outbox_lane_state_id').execute();
    },
  };
}
