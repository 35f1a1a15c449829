import { Counter, type Registry } from 'prom-client';
import type { Clock } from '../clock.ts';
import type { PlatformAddresses } from '../config.ts';
import type { PartnerTaskUpdate } from '@partner-task-kit/workflow/contract';
import type { OutboxUpdate } from '../store/outbox.table.ts';
import type { UpdateOutcome } from '../upstream/upstream-outcome.ts';
import { metricsLabelOf, type CompanyCredentials } from '../tenants/company-credentials.ts';
import { createWorkforceClient, type WorkforceClient } from '../upstream/workforce-client.ts';

/** The platform's client takes the record; the partner lane's sender reads the row (its id names the event). */
export interface UpdateSender {
  updatePartnerTask(assignedTaskUuid: string, payload: PartnerTaskUpdate, row: OutboxUpdate): Promise<UpdateOutcome>;
}

/** Who delivers a company's updates: the tenant (its circuit, its metrics label) and the client with its credential. */
interface DeliveryRoute {
  tenant: string;
  client: UpdateSender;
}

export interface DeliveryClients {
  /** Undefined when no credential acts for the company now: its updates are held. */
  route(companyUuid: string): DeliveryRoute | undefined;
  /** The companies whose updates may be claimed; undefined: any. */
  deliverableCompanies(): ReadonlySet<string> | undefined;
  /** The companies behind one tenant's circuit; undefined: any. */
  companiesOf(tenant: string): ReadonlySet<string> | undefined;
  close(): void;
}

/** One client for every update (tests, benchmarks): one tenant, `default`. */
export function oneClient(client: UpdateSender): DeliveryClients {
  const route: DeliveryRoute = { tenant: 'default', client };
  return { route: () => route, deliverableCompanies: () => undefined, companiesOf: () => undefined, close: () => {} };
}

export interface TenantClients extends DeliveryClients {
  /** The client of a tenant now (the doctor checks each; tests read its token cache). */
  clientOf(tenant: string): WorkforceClient | undefined;
}

/**
 * A client per tenant, each with its own token cache (one token request per tenant per token lifetime), made on first
 * use and replaced when the tenant's credential is rotated. A replaced client is closed only after its deliveries in
 * flight had time to finish (`retireAfterMs`), so a rotation never cuts one off.
 */
export function clientsPerTenant(options: {
  credentials: CompanyCredentials;
  upstream: PlatformAddresses;
  clock: Clock;
  metrics?: Registry;
  retireAfterMs: number;
}): TenantClients {
  const { credentials, upstream, clock, metrics, retireAfterMs } = options;
  const tokenRequests =
    metrics &&
    new Counter({
      name: 'partner_task_token_requests_total',
      help: 'Token requests made (spec 4.1).',
      labelNames: ['tenant'],
      registers: [metrics],
    });
  const clients = new Map<string, { revision: string; client: WorkforceClient }>();
  const retiring = new Set<NodeJS.Timeout>();
  const retired: WorkforceClient[] = [];

  function clientFor(tenant: string, revision: string, credential: { key: string; secret: string }): WorkforceClient {
    const current = clients.get(tenant);
    if (current?.revision === revision) return current.client;
    if (current) {
      retired.push(current.client);
      const timer = setTimeout(() => {
        retiring.delete(timer);
        current.client.close();
      }, retireAfterMs);
      timer.unref();
      retiring.add(timer);
    }
    const client = createWorkforceClient({
      upstream: { ...upstream, credential },
      clock,
      ...(tokenRequests ? { onTokenRequest: () => tokenRequests.inc({ tenant: metricsLabelOf(tenant) }) } : {}),
    });
    clients.set(tenant, { revision, client });
    return client;
  }

  return {
    route(companyUuid) {
      const entry = credentials.credentialFor(companyUuid);
      if (!entry) return undefined;
      return { tenant: entry.tenant, client: clientFor(entry.tenant, entry.revision, entry.credential) };
    },
    clientOf(tenant) {
      const entry = credentials.tenants().find((candidate) => candidate.tenant === tenant);
      return entry && clientFor(entry.tenant, entry.revision, entry.credential);
    },
    deliverableCompanies: () => credentials.deliverableCompanies(),
    companiesOf: (tenant) => credentials.companiesOf(tenant),
    close() {
      for (const timer of retiring) clearTimeout(timer);
      for (const client of retired) client.close();
      for (const { client } of clients.values()) client.close();
    },
  };
}
