import type { Migration, MigrationProvider } from 'kysely';
import type { StoreDialect } from './database-schema.ts';
import { initialSchema } from './migrations/0001-initial-schema.ts';
import { sentAtFromOutbox } from './migrations/0002-sent-at-from-outbox.ts';
import { readinessHeartbeat } from './migrations/0003-readiness-heartbeat.ts';
import { tenants } from './migrations/0004-tenants.ts';
import { pendingIndexes } from './migrations/0005-pending-indexes.ts';
import { fewerOutboxIndexes } from './migrations/0006-fewer-outbox-indexes.ts';
import { taskKeyAndConfirmation } from './migrations/0007-task-key-and-confirmation.ts';
import { partnerEvents } from './migrations/0008-partner-events.ts';
import { partnerApi } from './migrations/0009-partner-api.ts';
import { partnerWebhooks } from './migrations/0010-partner-webhooks.ts';
import { laneLedOutboxIndexes } from './migrations/0011-lane-led-outbox-indexes.ts';
import { dataRetention } from './migrations/0012-data-retention.ts';
import { pendingIndexPerLane } from './migrations/0013-pending-index-per-lane.ts';
import { taskRemovals } from './migrations/0014-task-removals.ts';
import { partnerAnswersByTask } from './migrations/0015-partner-answers-by-task.ts';
import { taskOffers } from './migrations/0016-task-offers.ts';
import { sensitiveReveals } from './migrations/0017-sensitive-reveals.ts';
import { uploads } from './migrations/0018-uploads.ts';
import { uploadRemovals } from './migrations/0019-upload-removals.ts';
import { uploadLocks } from './migrations/0020-upload-locks.ts';
import { offerChecks } from './migrations/0021-offer-checks.ts';
import { gradedStepFailed } from './migrations/0022-graded-step-failed.ts';

/**
 * Migrations live in code, not in files read at run time, so a bundled or compiled server carries them. Kysely runs
 * them in name order; names never change once released.
 */
export function storeMigrations(dialect: StoreDialect): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001_initial_schema': initialSchema(dialect),
    '0002_sent_at_from_outbox': sentAtFromOutbox,
    '0003_readiness_heartbeat': readinessHeartbeat,
    '0004_tenants': tenants,
    '0005_pending_indexes': pendingIndexes,
    '0006_fewer_outbox_indexes': fewerOutboxIndexes(dialect),
    '0007_task_key_and_confirmation': taskKeyAndConfirmation,
    '0008_partner_events': partnerEvents(dialect),
    '0009_partner_api': partnerApi(dialect),
    '0010_partner_webhooks': partnerWebhooks,
    '0011_lane_led_outbox_indexes': laneLedOutboxIndexes(dialect),
    '0012_data_retention': dataRetention,
    '0013_pending_index_per_lane': pendingIndexPerLane(dialect),
    '0014_task_removals': taskRemovals(dialect),
    '0015_partner_answers_by_task': partnerAnswersByTask(dialect),
    '0016_task_offers': taskOffers,
    '0017_sensitive_reveals': sensitiveReveals,
    '0018_uploads': uploads,
    '0019_upload_removals': uploadRemovals,
    '0020_upload_locks': uploadLocks,
    '0021_offer_checks': offerChecks,
    '0022_graded_step_failed': gradedStepFailed,
  };
  return { getMigrations: async () => migrations };
}
