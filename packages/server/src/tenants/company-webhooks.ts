import type { PartnerWebhookRow } from '../store/partner-webhooks.table.ts';
import { openSecret } from './secret-sealing.ts';

/** A tenant's endpoint for task events, its secrets opened (docs/connecting-your-backend.md#events-to-your-backend). */
export interface CompanyWebhook {
  url: string;
  secret: string;
  /** The secret a rotation replaced: it signs beside `secret` until `until`. */
  previous?: { secret: string; until: number };
}

/** Which companies' task events go where: read by the partner lane and the gate that writes them. */
export interface CompanyWebhooks {
  /** Undefined when the company has no webhook, or is no tenant now: none of its events is written or sent. */
  partnerWebhookFor(companyUuid: string): CompanyWebhook | undefined;
  /** The companies with a webhook (lower case), whose events the partner lane may claim. */
  partnerWebhookCompanies(): ReadonlySet<string>;
}

type SealedWebhookRow = Pick<PartnerWebhookRow, 'company_uuid' | 'url' | 'sealed_secret' | 'sealed_previous_secret' | 'previous_until'>;

/**
 * Opens the webhooks of the companies in `tenants`. A removed tenant's webhook stays stored but is not served, like
 * its credential: its events are held until it is added again. Throws, naming CREDENTIALS_KEY, when a secret does
 * not open.
 */
export function openCompanyWebhooks(
  rows: readonly SealedWebhookRow[],
  credentialsKey: Buffer,
  tenants: ReadonlySet<string>,
): Map<string, CompanyWebhook> {
  const webhooks = new Map<string, CompanyWebhook>();
  for (const row of rows) {
    const company = row.company_uuid.toLowerCase();
    if (!tenants.has(company)) continue;
    const owner = { companyUuid: row.company_uuid, partnerWebhook: true as const };
    const open = (sealed: string) => {
      try {
        return openSecret(sealed, credentialsKey, owner);
      } catch {
        throw new Error(
          `CREDENTIALS_KEY cannot open the stored webhook secret of company ${row.company_uuid}: it is not the key the webhook was set with`,
        );
      }
    };
    const previous =
      row.sealed_previous_secret === null || row.previous_until === null
        ? undefined
        : { secret: open(row.sealed_previous_secret), until: Number(row.previous_until) };
    webhooks.set(company, { url: row.url, secret: open(row.sealed_secret), ...(previous ? { previous } : {}) });
  }
  return webhooks;
}
