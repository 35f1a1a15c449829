import type { Clock } from '../clock';
import type { PartnerWebhookConfig } from '../config-partner-webhook';
import type { Store } from '../store/store';
import type { PartnerEventsGate } from '../store/partner-events.repository';
import type { RelayLogger } from './deliver-update';
import type { DeliveryMetrics } from './delivery-metrics';
import { createOutboxRelay, type OutboxRelay } from './outbox-relay';
import { partnerWebhookSender } from './partner-webhook-sender';
import type { OutboxRelayOptions } from './relay-options';
import type { RetryPolicy } from './retry-policy';
import type { WakeSignal } from './wake-signal';

/** Which companies' changes are told to the partner: every one when an endpoint is configured, else none. */
export function partnerEventsGateOf(webhook: PartnerWebhookConfig): PartnerEventsGate | undefined {
  return webhook.kind === 'endpoint' ? () => true : undefined;
}

/**
 * The second relay: the same code as the platform's on the partner lane, with its own concurrency, circuit and metrics,
 * so an endpoint down or slow never holds a platform update (each relay claims only its own lane's rows).
 */
export function startPartnerLane(options: {
  webhook: PartnerWebhookConfig;
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
  const { webhook, clock, timeoutMs } = options;
  if (webhook.kind !== 'endpoint') return undefined;
  const { secret } = webhook;
  const relay = createOutboxRelay({
    store: options.store,
    client: partnerWebhookSender({ url: webhook.url, secrets: () => [secret] }, { clock, timeoutMs }),
    clock,
    log: options.log,
    metrics: options.metrics,
    wakeSignal: options.wakeSignal,
    lane: 'partner',
    concurrency: 8,
    leaseMs: options.leaseMs,
    policy: options.policy,
    ...options.relay,
  });
  relay.start();
  return relay;
}
