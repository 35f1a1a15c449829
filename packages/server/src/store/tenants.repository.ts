import type { StoreDb } from './database-schema.ts';
import type { PendingCompany, TenantListing, TenantRow } from './tenants.table.ts';

/**
 * Every change of tenants (and of their webhooks, partner-webhooks.repository.ts) bumps this, in the same transaction:
 * a running server polls it instead of every row.
 */
export async function bumpRevision(trx: StoreDb): Promise<void> {
  await trx
    .insertInto('tenants_revision')
    .values({ id: 'tenants', revision: 1 })
    .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ revision: eb('tenants_revision.revision', '+', 1) })))
    .execute();
}

export async function tenantsRevision(db: StoreDb): Promise<number> {
  const row = await db.selectFrom('tenants_revision').select('revision').where('id', '=', 'tenants').executeTakeFirst();
  return Number(row?.revision ?? 0);
}

export type TenantChange = { ok: true } | { ok: false; reason: 'exists' | 'unknown' };

/** A new tenant; its company leaves the pending list. */
export function addTenant(
  db: StoreDb,
  input: { companyUuid: string; apiKey: string; sealedSecret: string; now: number },
): Promise<TenantChange> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('tenants')
      .select('company_uuid')
      .where('company_uuid', '=', input.companyUuid)
      .executeTakeFirst();
    if (existing) return { ok: false, reason: 'exists' };
    await trx
      .insertInto('tenants')
      .values({ company_uuid: input.companyUuid, api_key: input.apiKey, sealed_secret: input.sealedSecret, created_at: input.now })
      .execute();
    await trx.deleteFrom('pending_companies').where('company_uuid', '=', input.companyUuid).execute();
    await bumpRevision(trx);
    return { ok: true };
  });
}

export function rotateTenant(
  db: StoreDb,
  input: { companyUuid: string; apiKey: string; sealedSecret: string; now: number },
): Promise<TenantChange> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('tenants')
      .set({ api_key: input.apiKey, sealed_secret: input.sealedSecret, rotated_at: input.now })
      .where('company_uuid', '=', input.companyUuid)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return { ok: false, reason: 'unknown' };
    await bumpRevision(trx);
    return { ok: true };
  });
}

/** The tenant goes; its tasks and undelivered updates stay, held until it is added again. */
export function removeTenant(db: StoreDb, companyUuid: string): Promise<TenantChange> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('tenants').where('company_uuid', '=', companyUuid).executeTakeFirst();
    if (result.numDeletedRows === 0n) return { ok: false, reason: 'unknown' };
    await bumpRevision(trx);
    return { ok: true };
  });
}

export async function listTenants(db: StoreDb): Promise<TenantListing[]> {
  const rows = await db
    .selectFrom('tenants')
    .select(['company_uuid', 'api_key', 'created_at', 'rotated_at'])
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    companyUuid: row.company_uuid,
    apiKey: row.api_key,
    createdAt: Number(row.created_at),
    rotatedAt: row.rotated_at === null ? null : Number(row.rotated_at),
  }));
}

/** For the server's directory of credentials: the sealed Secrets, opened only in memory. */
export function loadSealedTenants(db: StoreDb): Promise<Pick<TenantRow, 'company_uuid' | 'api_key' | 'sealed_secret'>[]> {
  return db.selectFrom('tenants').select(['company_uuid', 'api_key', 'sealed_secret']).execute();
}

/**
 * Counts a session refused for a company that has no credential, so an operator sees who is waiting. Every refusal
 * is recorded: a company listed already is refreshed (its count and last time), a new one is added, and past `limit`
 * companies the least recently refused go first. Anyone can invent company ids (the context is not signed,
 * docs/decisions/008-a-deputy-for-many-companies.md), so they can push real companies out but never keep a new one
 * from being listed, nor grow the table past `limit`. No index serves the eviction, which reads the whole table: it
 * holds `limit` rows at most, and a new company added to a full list of 10,000 takes milliseconds on SQLite and on
 * Postgres (a refresh, or a list not full, reads no more than before).
 */
export async function recordRefusal(db: StoreDb, input: { companyUuid: string; now: number; limit: number }): Promise<void> {
  const { companyUuid, now, limit } = input;
  const refreshed = await db
    .updateTable('pending_companies')
    .set((eb) => ({ refusals: eb('refusals', '+', 1), last_seen_at: now }))
    .where('company_uuid', '=', companyUuid)
    .executeTakeFirst();
  if (refreshed.numUpdatedRows > 0n) return;
  await db
    .insertInto('pending_companies')
    .values({ company_uuid: companyUuid, refusals: 1, first_seen_at: now, last_seen_at: now })
    .onConflict((oc) =>
      oc.column('company_uuid').doUpdateSet((eb) => ({ refusals: eb('pending_companies.refusals', '+', 1), last_seen_at: now })),
    )
    .execute();
  const count = await db
    .selectFrom('pending_companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const excess = Number(count.n) - limit;
  if (excess <= 0) return;
  // Counted, not assumed to be one: two instances adding at once each drop what they see beyond the limit.
  await db
    .deleteFrom('pending_companies')
    .where('company_uuid', 'in', (eb) =>
      eb
        .selectFrom('pending_companies')
        .select('company_uuid')
        .where('company_uuid', '!=', companyUuid)
        .orderBy('last_seen_at')
        .orderBy('company_uuid')
        .limit(excess),
    )
    .execute();
}

/**
 * Forgets up to `limit` companies last refused before `lastSeenBefore` (docs/operations.md#retention); returns how many
 * went. A company refused again since is kept: each refusal refreshes it.
 */
export async function deletePendingSeenBefore(db: StoreDb, input: { lastSeenBefore: number; limit: number }): Promise<number> {
  const result = await db
    .deleteFrom('pending_companies')
    .where('company_uuid', 'in', (eb) =>
      eb.selectFrom('pending_companies').select('company_uuid').where('last_seen_at', '<', input.lastSeenBefore).limit(input.limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Empties the pending list, or removes one company from it (`companyUuid`, its companyKey); returns how many went. */
export async function clearPending(db: StoreDb, companyUuid?: string): Promise<number> {
  const result = await db
    .deleteFrom('pending_companies')
    .$if(companyUuid !== undefined, (qb) => qb.where('company_uuid', '=', companyUuid!))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The workflow a company's flow runs when its link names none; flows compare without case, like companies. */
export async function setFlowWorkflow(
  db: StoreDb,
  input: { companyUuid: string; taskFlowUuid: string; workflowId: string },
): Promise<void> {
  const row = {
    company_uuid: input.companyUuid.toLowerCase(),
    task_flow_uuid: input.taskFlowUuid.toLowerCase(),
    workflow_id: input.workflowId,
  };
  await db
    .insertInto('flow_workflows')
    .values(row)
    .onConflict((oc) => oc.columns(['company_uuid', 'task_flow_uuid']).doUpdateSet({ workflow_id: input.workflowId }))
    .execute();
}

export async function removeFlowWorkflow(db: StoreDb, input: { companyUuid: string; taskFlowUuid: string }): Promise<boolean> {
  const result = await db
    .deleteFrom('flow_workflows')
    .where('company_uuid', '=', input.companyUuid.toLowerCase())
    .where('task_flow_uuid', '=', input.taskFlowUuid.toLowerCase())
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function findFlowWorkflow(db: StoreDb, input: { companyUuid: string; taskFlowUuid: string }): Promise<string | undefined> {
  const row = await db
    .selectFrom('flow_workflows')
    .select('workflow_id')
    .where('company_uuid', '=', input.companyUuid.toLowerCase())
    .where('task_flow_uuid', '=', input.taskFlowUuid.toLowerCase())
    .executeTakeFirst();
  return row?.workflow_id;
}

export async function listFlowWorkflows(db: StoreDb): Promise<Array<{ companyUuid: string; taskFlowUuid: string; workflowId: string }>> {
  const rows = await db.selectFrom('flow_workflows').selectAll().orderBy('company_uuid').orderBy('task_flow_uuid').execute();
  return rows.map((row) => ({ companyUuid: row.company_uuid, taskFlowUuid: row.task_flow_uuid, workflowId: row.workflow_id }));
}

/** Most recently seen first. */
export async function listPending(db: StoreDb): Promise<PendingCompany[]> {
  const rows = await db.selectFrom('pending_companies').selectAll().orderBy('last_seen_at', 'desc').execute();
  return rows.map((row) => ({
    companyUuid: row.company_uuid,
    refusals: Number(row.refusals),
    firstSeenAt: Number(row.first_seen_at),
    lastSeenAt: Number(row.last_seen_at),
  }));
}
