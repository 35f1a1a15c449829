import type { Kysely, Migration } from 'kysely';

/**
 * `task_offers.checked_at`: when the server last asked the partner's backend for the step's offer, whatever it
 * answered (docs/connecting-your-backend.md#offers). An empty offer is asked again only once `checkAgainAfterMs` has
 * passed since then, across every instance, so a reload loop cannot hammer the backend; a failed ask counts too.
 * Nullable (rows of before, and rows the previous release writes during a rolling upgrade, count from `loaded_at`):
 * an expansion (docs/operations.md#rolling-upgrades).
 */
export const offerChecks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('task_offers').addColumn('checked_at', 'bigint').execute();
  },
};
