import type { Clock } from '../clock.ts';
import type { PartnerWebhookConfig } from '../config-partner-webhook.ts';
import type { Store } from '../store/store.ts';
import type { PartnerEventsGate } from '../store/partner-events.repository.ts';
import type { CompanyWebhooks } from '../tenants/company-webhooks.ts';
import type { RelayLogger } from './deliver-update.ts';
import type { DeliveryClients } from './delivery-clients.ts';
import type { DeliveryMetrics } from './delivery-metrics.ts';
import { createOutboxRelay, type OutboxRelay } from './outbox-relay.ts';
import { singleEndpoint, tenantEndpoints, type PartnerEndpoints } from './partner-endpoints.ts';
import { partnerWebhookSender } from './partner-webhook-sender.ts';
import { createHttpTransport, type HttpTransport } from '../upstream/http-transport.ts';
import type { OutboxRelayOptions } from './relay-options.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { WakeSignal } from './wake-signal.ts';

/**
 * The endpoints the configuration names: PARTNER_WEBHOOK_URL for every company, or in tenant mode each company's own
 * (read from the tenants' directory at each refresh). Undefined otherwise: no event is written.
 */
export function partnerEndpointsOf(webhook: PartnerWebhookConfig, webhooks: CompanyWebhooks, clock: Clock): PartnerEndpoints | undefined {
  if (webhook.kind === 'endpoint') return singleEndpoint(webhook.url, webhook.secret);
  if (webhook.kind === 'per-company') return tenantEndpoints(webhooks, clock);
  return undefined;
}

/** Which companies' changes are told to the partner: those with an endpoint now; undefined when none ever is. */
export function partnerEventsGateOf(endpoints: PartnerEndpoints | undefined): PartnerEventsGate | undefined {
  return endpoints && ((companyUuid) => endpoints.tells(companyUuid));
}

/**
 * The relay's clients on the partner lane: a company's events go to its endpoint, under that endpoint's circuit (one
 * endpoint down holds only its own events). A sender is made per delivery: it is a closure over the URL, and the
 * secrets it signs with are read at each call.
 */
function partnerClients(endpoints: PartnerEndpoints, options: { clock: Clock; timeoutMs: number; send: HttpTransport }): DeliveryClients {
  return {
    route(companyUuid) {
      const endpoint = endpoints.endpointFor(companyUuid);
      return endpoint && { tenant: endpoint.key, client: partnerWebhookSender(endpoint, options) };
    },
    deliverableCompanies: () => endpoints.deliverableCompanies(),
    companiesOf: (key) => endpoints.companiesOf(key),
    close: () => {},
  };
}

/** Deliveries under way at once on the partner lane: as many as the platform lane's default. */
const PARTNER_LANE_CONCURRENCY = 16;

/**
 * The second relay: the same code as the platform's on the partner lane, with its own concurrency, circuits and
 * metrics, so an endpoint down or slow never holds a platform update (each relay claims only its own lane's rows).
 */
export function startPartnerLane(options: {
  endpoints: PartnerEndpoints | undefined;
  store: Store;
  clock: Clock;
  log: RelayLogger;
  metrics: DeliveryMetrics;
  wakeSignal: WakeSignal;
  timeoutMs: number;
  leaseMs: number;
  policy: RetryPolicy;
  relay?: Pick<OutboxRelayOptions, 'concurrency' | 'pollMs'> | undefined;
}): OutboxRelay | undefined {
  const { endpoints, clock, timeoutMs } = options;
  if (endpoints === undefined) return undefined;
  // One pool of keep-alive connections for every endpoint, closed once the relay has stopped.
  const transport = createHttpTransport();
  const relay = createOutboxRelay({
    store: options.store,
    client: partnerClients(endpoints, { clock, timeoutMs, send: transport.send }),
    clock,
    log: options.log,
    metrics: options.metrics,
    wakeSignal: options.wakeSignal,
    lane: 'partner',
    concurrency: PARTNER_LANE_CONCURRENCY,
    shareSlots: endpoints.perCompany,
    leaseMs: options.leaseMs,
    policy: options.policy,
    ...options.relay,
  });
  relay.start();
  return {
    ...relay,
    async stop() {
      await relay.stop();
      transport.close();
    },
  };
}
