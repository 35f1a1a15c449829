import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../database-schema.ts';

/**
 * The last outbox indexes that did not lead by lane, replaced one for one (same cost per write), so neither lane's
 * claim nor the operators' status, dead-letter and re-drive queries walk the other lane's rows
 * (docs/operations.md#two-delivery-lanes). Found by the plans of every outbox query
 * (packages/kit-tests/integration/outbox-query-plans.test.ts):
 * - Both: a claim limited to some companies (tenant mode, and every probe) went through (company_uuid, state), so it
 *   walked the company's pending rows of both lanes. SQLite gets (lane, state, company_uuid, id); Postgres the
 *   partial index over pending rows, the same split per engine as 0006 and 0008.
 * - Postgres: given rows and statistics, its planner preferred (state, id) to the partial lane indexes for the claims
 *   and the next-due query, and the dead letters and the counts had nothing else. (lane, state, id) takes its place.
 *   SQLite has had it since 0008.
 */
export function laneLedOutboxIndexes(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        await db.schema.createIndex('outbox_lane_state_company').on('outbox').columns(['lane', 'state', 'company_uuid', 'id']).execute();
      } else {
        await db.schema.createIndex('outbox_lane_state_id').on('outbox').columns(['lane', 'state', 'id']).execute();
        await db.schema.dropIndex('outbox_state_id_idx').execute();
        await db.schema
          .createIndex('outbox_pending_lane_company')
          .on('outbox')
          .columns(['lane', 'company_uuid', 'id'])
          .where(sql.ref('state'), '=', 'pending')
          .execute();
      }
      await db.schema.dropIndex('outbox_pending_company').execute();
    },
  };
}
