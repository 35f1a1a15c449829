import type { Kysely } from 'kysely';
import type { OutboxTable } from './outbox.table.ts';
import type { PartnerIdempotencyTable, PartnerKeysTable } from './partner-keys.table.ts';
import type { PartnerWebhooksTable } from './partner-webhooks.table.ts';
import type { SensitiveRevealsTable } from './sensitive-reveals.table.ts';
import type { TaskHistoryTable } from './task-history.table.ts';
import type { TaskOffersTable } from './task-offers.table.ts';
import type { TaskRemovalsTable, TasksTable } from './tasks.table.ts';
import type { PendingCompaniesTable, TenantsTable } from './tenants.table.ts';
import type { UploadsTable } from './uploads.table.ts';

/** Every table of the store, as Kysely sees it: snake_case stays here and in SQL (docs/architecture.md#one-row-conversion). */
export interface DatabaseSchema {
  tasks: TasksTable;
  task_history: TaskHistoryTable;
  outbox: OutboxTable;
  /** One row per probe, rewritten by readiness (health.repository.ts). */
  heartbeat: { id: string; beat_at: number };
  tenants: TenantsTable;
  tenants_revision: { id: string; revision: number };
  pending_companies: PendingCompaniesTable;
  rate_limits: { key: string; window_start: number; count: number };
  flow_workflows: { company_uuid: string; task_flow_uuid: string; workflow_id: string };
  partner_keys: PartnerKeysTable;
  partner_idempotency: PartnerIdempotencyTable;
  partner_webhooks: PartnerWebhooksTable;
  /** SQLite only: the largest change marker ever given, so a deleted task's marker is never given again. */
  task_change_floor: { id: string; seq: number };
  /** Tasks deleted, for the changes feed (migrations/0014-task-removals.ts): no worker data. */
  task_removals: TaskRemovalsTable;
  /** The offer of a task's step, from the partner's backend (migrations/0016-task-offers.ts). */
  task_offers: TaskOffersTable;
  /** Each sensitive value the partner API showed in clear: key, task, field, time (migrations/0017-sensitive-reveals.ts). */
  sensitive_reveals: SensitiveRevealsTable;
  /** Files from the worker's phone, without their bytes (migrations/0018-uploads.ts). */
  uploads: UploadsTable;
  /** Who writes to an upload now, across instances (migrations/0020-upload-locks.ts). */
  upload_locks: { upload_id: string; holder: string; expires_at: number; release_wanted: number };
  /** Who erased a worker's data and when, never whose (`npm run tasks -- erase`). */
  erasure_log: { erased_at: number; erased_by: string };
}

/**
 * What every repository function takes first. A `Transaction<DatabaseSchema>` is a `Kysely<DatabaseSchema>` too, so
 * the caller decides whether a call joins its transaction (docs/architecture.md#one-row-conversion).
 */
export type StoreDb = Kysely<DatabaseSchema>;

export type StoreDialect = 'sqlite' | 'postgres';
