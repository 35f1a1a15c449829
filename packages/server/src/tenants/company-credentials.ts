import { createHash } from 'node:crypto';
import type { ApiCredential, Tenancy } from '../config.ts';
import { loadSealedPartnerWebhooks } from '../store/partner-webhooks.repository.ts';
import { loadSealedTenants, tenantsRevision } from '../store/tenants.repository.ts';
import type { Store } from '../store/store.ts';
import { openCompanyWebhooks, type CompanyWebhook, type CompanyWebhooks } from './company-webhooks.ts';
import { openSecret } from './secret-sealing.ts';

/** What a request handler asks: may a session open for this company? */
export interface CompanyGate {
  serves(companyUuid: string): boolean;
  /** Whose task changes are told to the partner's backend, and the wake of that lane's relay once they are written. */
  partnerEvents?: { tells(companyUuid: string): boolean; enqueued(): void };
}

/** The credential acting for a company, and whose circuit its deliveries share (docs/platform.md#authentication: one per client company). */
interface CompanyCredential {
  /** The circuit, token cache and metrics label: the company in tenant mode, `default` for the single credential. */
  tenant: string;
  credential: ApiCredential;
  /** Changes when the credential is rotated, so a client built on the old one is replaced. */
  revision: string;
}

/**
 * Which companies the server acts for, and with which credential (docs/decisions/008-a-deputy-for-many-companies.md: default deny). Request handlers
 * ask `serves` before storing anything; the relay asks `credentialFor` before each delivery, so a company removed or
 * rotated takes effect at the next refresh without a restart.
 */
export interface CompanyCredentials extends CompanyGate, CompanyWebhooks {
  /** Undefined when nothing acts for the company: its updates are held until something does. */
  credentialFor(companyUuid: string): CompanyCredential | undefined;
  /** The companies whose updates may be delivered, or undefined for any company. */
  deliverableCompanies(): ReadonlySet<string> | undefined;
  /** The companies whose deliveries share a tenant's circuit (undefined: any company). */
  companiesOf(tenant: string): ReadonlySet<string> | undefined;
  /** Every tenant with a credential now, for the doctor. */
  tenants(): CompanyCredential[];
  /** Reads the tenants again if they changed; throws if a stored Secret does not open (a wrong CREDENTIALS_KEY). */
  refresh(): Promise<void>;
  /** Refreshes every `intervalMs` until stopped. */
  watch(intervalMs: number, onError: (error: unknown) => void): void;
  stop(): void;
}

const DEFAULT_TENANT = 'default';

/** Company UUIDs compare without case: the platform prints them in either (docs/platform.md#partner-task-configuration shows lower case). */
export const companyKey = (companyUuid: string) => companyUuid.toLowerCase();

/**
 * A tenant as the metrics name it: `default`, or `company-` and 12 hex digits of the company UUID's SHA-256. The
 * metrics list every tenant, and a company UUID is enough to open sessions for that company's tasks, so it is not
 * printed there; `npm run tenants -- list` shows each tenant's label beside its company.
 */
export function metricsLabelOf(tenant: string): string {
  return tenant === DEFAULT_TENANT ? tenant : `company-${createHash('sha256').update(companyKey(tenant)).digest('hex').slice(0, 12)}`;
}

export async function openCompanyCredentials(tenancy: Tenancy, store: Store): Promise<CompanyCredentials> {
  if (tenancy.mode === 'single') return singleCredential(tenancy.credential, tenancy.companies);
  const directory = tenantDirectory(store, tenancy.credentialsKey);
  await directory.refresh();
  return directory;
}

/** The gate of the single-credential mode, known from the configuration alone (tests build apps without a store). */
export function singleCredentialGate(tenancy: Extract<Tenancy, { mode: 'single' }>): CompanyGate {
  return singleCredential(tenancy.credential, tenancy.companies);
}

function singleCredential(credential: ApiCredential, companies: ReadonlySet<string> | undefined): CompanyCredentials {
  const entry: CompanyCredential = { tenant: DEFAULT_TENANT, credential, revision: 'static' };
  const serves = (companyUuid: string) => companies === undefined || companies.has(companyKey(companyUuid));
  return {
    serves,
    credentialFor: (companyUuid) => (serves(companyUuid) ? entry : undefined),
    deliverableCompanies: () => companies,
    companiesOf: () => companies,
    tenants: () => [entry],
    // Outside tenant mode the endpoint is PARTNER_WEBHOOK_URL's, for every company (packages/server/src/delivery/partner-endpoints.ts).
    partnerWebhookFor: () => undefined,
    partnerWebhookCompanies: () => new Set(),
    refresh: async () => {},
    watch: () => {},
    stop: () => {},
  };
}

function tenantDirectory(store: Store, credentialsKey: Buffer): CompanyCredentials {
  let entries = new Map<string, CompanyCredential>();
  let companies: ReadonlySet<string> = new Set();
  let webhooks = new Map<string, CompanyWebhook>();
  let webhookCompanies: ReadonlySet<string> = new Set();
  let seenRevision = -1;
  let timer: NodeJS.Timeout | undefined;

  async function refresh(): Promise<void> {
    const revision = await tenantsRevision(store.db);
    if (revision === seenRevision) return;
    const [rows, webhookRows] = await Promise.all([loadSealedTenants(store.db), loadSealedPartnerWebhooks(store.db)]);
    const next = new Map<string, CompanyCredential>();
    for (const row of rows) {
      const owner = { companyUuid: row.company_uuid, apiKey: row.api_key };
      let secret: string;
      try {
        secret = openSecret(row.sealed_secret, credentialsKey, owner);
      } catch {
        throw new Error(
          `CREDENTIALS_KEY cannot open the stored Secret of company ${row.company_uuid}: it is not the key the tenants were added with`,
        );
      }
      const tenant = companyKey(row.company_uuid);
      next.set(tenant, { tenant, credential: { key: row.api_key, secret }, revision: row.sealed_secret });
    }
    const nextWebhooks = openCompanyWebhooks(webhookRows, credentialsKey, new Set(next.keys()));
    entries = next;
    companies = new Set(next.keys());
    webhooks = nextWebhooks;
    webhookCompanies = new Set(nextWebhooks.keys());
    seenRevision = revision;
  }

  return {
    serves: (companyUuid) => entries.has(companyKey(companyUuid)),
    credentialFor: (companyUuid) => entries.get(companyKey(companyUuid)),
    deliverableCompanies: () => companies,
    companiesOf: (tenant) => new Set([tenant]),
    tenants: () => [...entries.values()],
    partnerWebhookFor: (companyUuid) => webhooks.get(companyKey(companyUuid)),
    partnerWebhookCompanies: () => webhookCompanies,
    refresh,
    watch(intervalMs, onError) {
      timer ??= setInterval(() => void refresh().catch(onError), intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
