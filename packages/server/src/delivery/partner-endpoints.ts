import type { Clock } from '../clock.ts';
import { companyKey } from '../tenants/company-credentials.ts';
import type { CompanyWebhook, CompanyWebhooks } from '../tenants/company-webhooks.ts';

/** Where one company's events go: the circuit they share (`key`), the URL, and the secrets that sign them now. */
interface PartnerEndpointRoute {
  key: string;
  url: string;
  /** Read at each delivery, so a rotation or the end of an old secret's overlap applies without a restart. */
  secrets(): readonly string[];
}

/**
 * The partner lane's routing (docs/connecting-your-backend.md#events-to-your-backend): whose task changes are written as events, and where
 * each company's are sent. One endpoint for every company (PARTNER_WEBHOOK_URL, or emulator mode's receiver), or in
 * tenant mode each company's own.
 */
export interface PartnerEndpoints {
  /** Whether the company's task changes are written as events now. */
  tells(companyUuid: string): boolean;
  /** Undefined when the company has no endpoint now: its events written before are held, not sent. */
  endpointFor(companyUuid: string): PartnerEndpointRoute | undefined;
  /** The companies whose events may be claimed; undefined: any. */
  deliverableCompanies(): ReadonlySet<string> | undefined;
  /** The companies behind one endpoint's circuit; undefined: any. */
  companiesOf(key: string): ReadonlySet<string> | undefined;
  /** Each company has an endpoint of its own: the lane's slots are shared among them (slot-shares.ts). */
  readonly perCompany: boolean;
}

/** The key of the single endpoint's circuit: the relay's name for one circuit over every company (tenant-circuits.ts). */
const SINGLE_KEY = 'default';

/** Every company's events to one URL, signed with one secret (PARTNER_WEBHOOK_URL, or emulator mode's receiver). */
export function singleEndpoint(url: string, secret: string): PartnerEndpoints {
  const route: PartnerEndpointRoute = { key: SINGLE_KEY, url, secrets: () => [secret] };
  return {
    tells: () => true,
    endpointFor: () => route,
    deliverableCompanies: () => undefined,
    companiesOf: () => undefined,
    perCompany: false,
  };
}

/**
 * Tenant mode: each company with a webhook (`npm run tenants -- webhook`) has its own endpoint, secret and circuit, so
 * one company's endpoint down never holds another's events, and its share of the lane's slots, so one slow never
 * delays them (slot-shares.ts). What the directory read at its last refresh applies.
 */
export function tenantEndpoints(webhooks: CompanyWebhooks, clock: Clock): PartnerEndpoints {
  return {
    tells: (companyUuid) => webhooks.partnerWebhookFor(companyUuid) !== undefined,
    endpointFor(companyUuid) {
      const webhook = webhooks.partnerWebhookFor(companyUuid);
      if (webhook === undefined) return undefined;
      return {
        key: companyKey(companyUuid),
        url: webhook.url,
        secrets: () => signingSecretsOf(webhooks.partnerWebhookFor(companyUuid) ?? webhook, clock.now()),
      };
    },
    deliverableCompanies: () => webhooks.partnerWebhookCompanies(),
    companiesOf: (key) => new Set([key]),
    perCompany: true,
  };
}

/** The new secret, and during a rotation's overlap the one it replaced: a receiver holding either verifies. */
function signingSecretsOf(webhook: CompanyWebhook, now: number): readonly string[] {
  return webhook.previous !== undefined && now < webhook.previous.until ? [webhook.secret, webhook.previous.secret] : [webhook.secret];
}
