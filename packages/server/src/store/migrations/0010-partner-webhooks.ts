import type { Kysely, Migration } from 'kysely';

/**
 * Tenant mode's endpoints for task events: one per client company, set with `npm run tenants -- webhook`
 * (docs/connecting-your-backend.md#events-to-your-backend). The same on both engines.
 */
export const partnerWebhooks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('partner_webhooks')
      // Lower case, as the outbox's company_uuid: the relay matches one against the other.
      .addColumn('company_uuid', 'text', (col) => col.primaryKey())
      .addColumn('url', 'text', (col) => col.notNull())
      // AES-256-GCM under CREDENTIALS_KEY (packages/server/src/tenants/secret-sealing.ts): never the secret itself.
      .addColumn('sealed_secret', 'text', (col) => col.notNull())
      // After a rotation the replaced secret signs too until previous_until, so a receiver can switch without a gap.
      .addColumn('sealed_previous_secret', 'text')
      .addColumn('previous_until', 'bigint')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('rotated_at', 'bigint')
      .execute();
  },
};
