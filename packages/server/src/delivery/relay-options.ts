import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { OutboxLane } from '../store/outbox.table.ts';
import type { PartnerEventsGate } from '../store/partner-events.repository.ts';
import type { Store } from '../store/store.ts';
import type { RelayLogger } from './deliver-update.ts';
import { oneClient, type DeliveryClients, type UpdateSender } from './delivery-clients.ts';
import type { DeliveryMetrics } from './delivery-metrics.ts';
import { defaultRetryPolicy, type RetryPolicy } from './retry-policy.ts';
import type { WakeSignal } from './wake-signal.ts';

export interface OutboxRelayOptions {
  store: Store;
  /** One client for every update (one tenant), or a client per company's credential. */
  client: UpdateSender | DeliveryClients;
  clock: Clock;
  log: RelayLogger;
  metrics?: DeliveryMetrics;
  /** Updates of different tasks in flight at once; one task never has more than one (per-task order). */
  concurrency?: number;
  /** How long a claim holds a row; must outlast a call's timeout so a slow delivery is not claimed twice. */
  leaseMs?: number;
  /** Safety-net poll: new rows wake the relay at once, this only catches what another process enqueued. */
  pollMs?: number;
  /**
   * At most one claim transaction per this many ms: under load the updates written meanwhile are claimed together
   * (one commit for many rows, not one per request). A claim after a quiet spell happens at once, so a lone update
   * still leaves without delay.
   */
  claimIntervalMs?: number;
  policy?: RetryPolicy;
  /** Rung by request handlers after a commit that wrote an update; made before the relay so the app can be built first. */
  wakeSignal?: WakeSignal;
  random?: () => number;
  workerId?: string;
  /**
   * Whose rows this relay delivers: the platform's updates (default) or the events to the partner's backend. Each lane
   * has its own relay, concurrency and circuits, so a partner endpoint down or slow never delays a platform update.
   */
  lane?: OutboxLane;
  /** Platform lane: the companies whose rejected tasks are told to the partner's backend (`task.rejected`). */
  partnerEvents?: PartnerEventsGate;
  /**
   * Each tenant is a receiver of its own (tenant mode's partner endpoints): the slots are shared among them
   * (slot-shares.ts), so one slow receiver never holds them all.
   */
  shareSlots?: boolean;
}

/** The options with their defaults filled in. */
export function relaySettingsOf(options: OutboxRelayOptions) {
  const concurrency = options.concurrency ?? 16;
  return {
    store: options.store,
    clock: options.clock,
    log: withLane(options.log, options.lane ?? 'platform'),
    clients: 'route' in options.client ? options.client : oneClient(options.client),
    concurrency,
    leaseMs: options.leaseMs ?? 60_000,
    pollMs: options.pollMs ?? 5_000,
    claimIntervalMs: options.claimIntervalMs ?? 5,
    policy: options.policy ?? defaultRetryPolicy,
    workerId: options.workerId ?? `relay-${options.lane ?? 'platform'}-${randomUUID()}`,
    lane: options.lane ?? 'platform',
    shareSlots: options.shareSlots ?? false,
    /** Below this many free slots, with deliveries under way, the relay waits for more before claiming again. */
    refillBatch: Math.max(1, Math.floor(concurrency / 4)),
  };
}

/**
 * Every line of a relay names its lane: the two relays' lines read alike otherwise, and in single-credential mode both
 * name the tenant `default` (docs/operations.md#logs).
 */
function withLane(log: RelayLogger, lane: OutboxLane): RelayLogger {
  return {
    info: (object, message) => log.info({ lane, ...object }, message),
    warn: (object, message) => log.warn({ lane, ...object }, message),
    error: (object, message) => log.error({ lane, ...object }, message),
  };
}
