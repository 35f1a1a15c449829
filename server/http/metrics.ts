import type { DeliveryCounters } from '../delivery/delivery-metrics';
import { LATENCY_BUCKETS_SECONDS } from '../delivery/delivery-metrics';
import type { OutboxStats } from '../store/outbox.repository';

export interface MetricsSources {
  outbox: OutboxStats;
  delivery: ReturnType<DeliveryCounters['snapshot']>;
  tokenRequests: number;
}

/** Prometheus text exposition format 0.0.4: HELP, TYPE, then samples. */
export function renderMetrics({ outbox, delivery, tokenRequests }: MetricsSources): string {
  const lines: string[] = [];
  const metric = (name: string, type: 'gauge' | 'counter' | 'histogram', help: string, samples: Array<[string, number]>) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
  };

  metric('partner_task_outbox_pending', 'gauge', 'Updates written and not yet delivered.', [['', outbox.pending]]);
  metric('partner_task_outbox_oldest_pending_age_seconds', 'gauge', 'Age of the oldest undelivered update.', [
    ['', outbox.oldestPendingAgeMs / 1000],
  ]);
  metric('partner_task_outbox_dead_letters', 'gauge', 'Updates that will not be retried without an operator.', [['', outbox.dead]]);
  metric('partner_task_updates_delivered_total', 'counter', 'Updates the platform accepted (2xx), by this process.', [
    ['', delivery.delivered],
  ]);
  metric(
    'partner_task_delivery_failures_total',
    'counter',
    'Failed delivery attempts by reason.',
    Object.entries(delivery.failedByReason).map(([reason, count]) => [`{reason="${reason}"}`, count]),
  );
  metric('partner_task_dead_lettered_total', 'counter', 'Updates moved to dead letters by this process.', [['', delivery.deadLettered]]);
  metric('partner_task_token_requests_total', 'counter', 'Token requests made (spec 4.1).', [['', tokenRequests]]);

  const histogram = 'partner_task_enqueue_to_delivered_seconds';
  lines.push(`# HELP ${histogram} Time from writing an update to its delivery.`, `# TYPE ${histogram} histogram`);
  LATENCY_BUCKETS_SECONDS.forEach((bound, index) => lines.push(`${histogram}_bucket{le="${bound}"} ${delivery.latency.buckets[index]}`));
  lines.push(`${histogram}_bucket{le="+Inf"} ${delivery.latency.count}`);
  lines.push(`${histogram}_sum ${delivery.latency.sumSeconds}`, `${histogram}_count ${delivery.latency.count}`);
  return `${lines.join('\n')}\n`;
}
