/** Counters of the relay, read by GET /metrics. Gauges (pending, oldest age) come from the database at scrape time. */
export interface DeliveryMetrics {
  delivered(enqueueToDeliveredMs: number): void;
  failed(reason: string): void;
  deadLettered(): void;
}

export interface DeliveryCounters extends DeliveryMetrics {
  snapshot(): { delivered: number; failedByReason: Record<string, number>; deadLettered: number; latency: LatencyHistogram };
}

/** Prometheus-style cumulative buckets (seconds) for enqueue-to-delivered latency. */
export const LATENCY_BUCKETS_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600] as const;

export interface LatencyHistogram {
  buckets: number[];
  count: number;
  sumSeconds: number;
}

export function createDeliveryCounters(): DeliveryCounters {
  let delivered = 0;
  let deadLettered = 0;
  const failedByReason: Record<string, number> = {};
  const latency: LatencyHistogram = { buckets: LATENCY_BUCKETS_SECONDS.map(() => 0), count: 0, sumSeconds: 0 };

  return {
    delivered(ms) {
      delivered += 1;
      const seconds = ms / 1000;
      latency.count += 1;
      latency.sumSeconds += seconds;
      LATENCY_BUCKETS_SECONDS.forEach((bound, index) => {
        if (seconds <= bound) latency.buckets[index]! += 1;
      });
    },
    failed(reason) {
      failedByReason[reason] = (failedByReason[reason] ?? 0) + 1;
    },
    deadLettered() {
      deadLettered += 1;
    },
    snapshot() {
      return { delivered, failedByReason: { ...failedByReason }, deadLettered, latency: { ...latency, buckets: [...latency.buckets] } };
    },
  };
}
