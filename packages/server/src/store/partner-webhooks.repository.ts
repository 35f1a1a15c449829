import type { StoreDb } from './database-schema.ts';
import { toPartnerWebhookListing, type PartnerWebhookListing, type PartnerWebhookRow } from './partner-webhooks.table.ts';
import { bumpRevision } from './tenants.repository.ts';

export type WebhookSet =
  { kind: 'created' } | { kind: 'url_changed'; previousUrl: string } | { kind: 'unchanged' } | { kind: 'not_a_tenant' };

/**
 * Sets a tenant's endpoint. A company that has one keeps its secret and only changes its URL: the receiver already
 * holds the secret, and a new one is a rotation (`rotatePartnerWebhookSecret`). `sealedSecret` is stored only when the
 * webhook is new. Companies are lower case, as in `tenants` and the outbox.
 */
export function setPartnerWebhook(
  db: StoreDb,
  input: { companyUuid: string; url: string; sealedSecret: string; now: number },
): Promise<WebhookSet> {
  return db.transaction().execute(async (trx) => {
    const tenant = await trx.selectFrom('tenants').select('company_uuid').where('company_uuid', '=', input.companyUuid).executeTakeFirst();
    if (!tenant) return { kind: 'not_a_tenant' };
    const existing = await trx
      .selectFrom('partner_webhooks')
      .select('url')
      .where('company_uuid', '=', input.companyUuid)
      .executeTakeFirst();
    if (existing?.url === input.url) return { kind: 'unchanged' };
    if (existing) {
      await trx.updateTable('partner_webhooks').set({ url: input.url }).where('company_uuid', '=', input.companyUuid).execute();
    } else {
      await trx
        .insertInto('partner_webhooks')
        .values({ company_uuid: input.companyUuid, url: input.url, sealed_secret: input.sealedSecret, created_at: input.now })
        .execute();
    }
    await bumpRevision(trx);
    return existing ? { kind: 'url_changed', previousUrl: existing.url } : { kind: 'created' };
  });
}

/**
 * A new secret; the one it replaces keeps signing until `previousUntil`. A second rotation within that time replaces
 * the kept one: only the secret just replaced can still be in the receiver's hands alone.
 */
export function rotatePartnerWebhookSecret(
  db: StoreDb,
  input: { companyUuid: string; sealedSecret: string; now: number; previousUntil: number },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('partner_webhooks')
      .select('sealed_secret')
      .where('company_uuid', '=', input.companyUuid)
      .executeTakeFirst();
    if (!current) return false;
    await trx
      .updateTable('partner_webhooks')
      .set({
        sealed_secret: input.sealedSecret,
        sealed_previous_secret: current.sealed_secret,
        previous_until: input.previousUntil,
        rotated_at: input.now,
      })
      .where('company_uuid', '=', input.companyUuid)
      .execute();
    await bumpRevision(trx);
    return true;
  });
}

/** No more events are written for the company; those written and not delivered are held until it has a webhook again. */
export function removePartnerWebhook(db: StoreDb, companyUuid: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('partner_webhooks').where('company_uuid', '=', companyUuid).executeTakeFirst();
    if (result.numDeletedRows === 0n) return false;
    await bumpRevision(trx);
    return true;
  });
}

export async function listPartnerWebhooks(db: StoreDb): Promise<PartnerWebhookListing[]> {
  const rows = await db
    .selectFrom('partner_webhooks')
    .select(['company_uuid', 'url', 'created_at', 'rotated_at', 'previous_until'])
    .orderBy('created_at')
    .orderBy('company_uuid')
    .execute();
  return rows.map(toPartnerWebhookListing);
}

/** For the server's directory: the sealed secrets, opened only in memory. */
export function loadSealedPartnerWebhooks(
  db: StoreDb,
): Promise<Pick<PartnerWebhookRow, 'company_uuid' | 'url' | 'sealed_secret' | 'sealed_previous_secret' | 'previous_until'>[]> {
  return db
    .selectFrom('partner_webhooks')
    .select(['company_uuid', 'url', 'sealed_secret', 'sealed_previous_secret', 'previous_until'])
    .execute();
}
