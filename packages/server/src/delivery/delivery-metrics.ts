import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Clock } from '../clock.ts';
import type { UpstreamFailure } from '../upstream/upstream-outcome.ts';
import { metricsLabelOf } from '../tenants/company-credentials.ts';
import { failureName } from './circuit-reports.ts';
import { outboxStatsByLane, type OutboxStats } from '../store/outbox-status.repository.ts';
import { outboxLanes, type OutboxLane } from '../store/outbox.table.ts';
import type { Store } from '../store/store.ts';

/** What the relay reports as it works; GET /metrics exposes it. */
export interface DeliveryMetrics {
  delivered(enqueueToDeliveredMs: number): void;
  failed(reason: string): void;
  deadLettered(): void;
  /** The platform refused a task until it was rejected (docs/decisions/008-a-deputy-for-many-companies.md). */
  taskRejected(): void;
  /** A tenant's circuit opened (with its cause) or closed (undefined). */
  circuit(tenant: string, openCause: UpstreamFailure | undefined): void;
}

/** Enqueue-to-delivered latency buckets (seconds): from a quiet server's few milliseconds to a day of retries. */
const LATENCY_BUCKETS_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600];

/**
 * The relay's counters, registered in the server's own registry (one per app: two apps in one test never share). Every
 * series names its lane, `lane="platform"` or `lane="partner"` (docs/operations.md#metrics): the names stay, so a
 * query summing a metric still reads both, and one lane's outage shows apart from the other's. `forLane('partner')`
 * is the partner relay's view of the same metrics.
 */
export function createDeliveryMetrics(registry: Registry): DeliveryMetrics & { forLane(lane: OutboxLane): DeliveryMetrics } {
  const registers = [registry];
  const labelNames = ['lane'];
  const delivered = new Counter({
    name: 'partner_task_updates_delivered_total',
    help: 'Updates the platform (or with lane="partner", events the partner\'s endpoint) accepted (2xx), by this process.',
    labelNames,
    registers,
  });
  const failures = new Counter({
    name: 'partner_task_delivery_failures_total',
    help: 'Failed delivery attempts by reason.',
    labelNames: ['reason', 'lane'],
    registers,
  });
  const rejected = new Counter({
    name: 'partner_task_tasks_rejected_total',
    help: 'Tasks marked rejected because the platform refused them (404/403) while it took other updates.',
    registers,
  });
  const dead = new Counter({
    name: 'partner_task_dead_lettered_total',
    help: 'Updates moved to dead letters by this process.',
    labelNames,
    registers,
  });
  const latency = new Histogram({
    name: 'partner_task_enqueue_to_delivered_seconds',
    help: 'Time from writing an update to its delivery.',
    buckets: LATENCY_BUCKETS_SECONDS,
    labelNames,
    registers,
  });
  const circuitOpen = new Gauge({
    name: 'partner_task_delivery_circuit_open',
    help: 'Delivery held by the circuit: 1 while open, by cause (forbidden: the role lacks a permission, spec 5.6).',
    labelNames: ['tenant', 'cause', 'lane'],
    registers,
  });
  /** Each tenant's series: one at a time, so a closed circuit reads `cause="none"} 0`, not a stale cause. */
  const causes = new Map<string, string>();
  const view = (lane: OutboxLane): DeliveryMetrics => {
    const labels = { lane };
    return {
      circuit(tenantKey, openCause) {
        const tenant = metricsLabelOf(tenantKey);
        const previous = causes.get(`${lane} ${tenant}`);
        if (previous !== undefined) circuitOpen.remove({ tenant, cause: previous, lane });
        const cause = openCause === undefined ? 'none' : failureName(openCause);
        causes.set(`${lane} ${tenant}`, cause);
        circuitOpen.set({ tenant, cause, lane }, openCause === undefined ? 0 : 1);
      },
      delivered(ms) {
        delivered.inc(labels);
        latency.observe(labels, ms / 1000);
      },
      failed(reason) {
        failures.inc({ reason, lane });
      },
      deadLettered() {
        dead.inc(labels);
      },
      taskRejected() {
        rejected.inc();
      },
    };
  };
  return { ...view('platform'), forLane: view };
}

/**
 * The outbox's gauges, one series per lane, read from the database at scrape time, so every instance on one database
 * reports the same backlog. The three gauges share one query per scrape (prom-client collects them concurrently).
 */
export function registerOutboxGauges(registry: Registry, store: Store, clock: Clock): void {
  let scrape: Promise<Record<OutboxLane, OutboxStats>> | undefined;
  const stats = () => {
    scrape ??= outboxStatsByLane(store.db, clock.now(), { delivered: false }).finally(() => setImmediate(() => (scrape = undefined)));
    return scrape;
  };
  const gauge = (name: string, help: string, read: (s: OutboxStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['lane'],
      registers: [registry],
      async collect() {
        const lanes = await stats();
        for (const lane of outboxLanes) this.set({ lane }, read(lanes[lane]));
      },
    });
  gauge('partner_task_outbox_pending', 'Updates written and not yet delivered.', (s) => s.pending);
  gauge('partner_task_outbox_oldest_pending_age_seconds', 'Age of the oldest undelivered update.', (s) => s.oldestPendingAgeMs / 1000);
  gauge('partner_task_outbox_dead_letters', 'Updates that will not be retried without an operator.', (s) => s.dead);
}
