import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { systemClock } from '@partner-task-kit/server/clock';
import type { UpstreamConfig } from '@partner-task-kit/server/config';
import { EMULATOR_CREDENTIAL } from '@partner-task-kit/dev';
import { createOutboxRelay } from '@partner-task-kit/server/delivery/outbox-relay';
import type { Store, StoreOptions } from '@partner-task-kit/server/store/store';
import { createWorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { machine, percentile, round, runPool, openBenchTasks, spawnEmulator, waitUntilDrained, withBenchStore } from './bench-support';

/**
 * `npm run bench:delivery`: N updates over M tasks through the real outbox and relay to an emulator in another
 * process, on SQLite and on Postgres, beside the emulator's own ceiling (the same requests sent straight to it with
 * the same concurrency), so the ratio is measured in one run.
 */
const { values } = parseArgs({
  options: {
    updates: { type: 'string', default: '10000' },
    tasks: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '32' },
    'paced-rate': { type: 'string', default: '500' },
    engines: { type: 'string', default: 'sqlite,postgres' },
  },
});
const updates = Number(values.updates);
const taskCount = Number(values.tasks);
const concurrency = Number(values.concurrency);
const pacedRate = Number(values['paced-rate']);
const silent = { info: () => {}, warn: () => {}, error: (o: object, m: string) => console.error(m, o) };

const emulator = await spawnEmulator();
const upstream: UpstreamConfig = {
  authUrl: emulator.url,
  baseUrl: emulator.url,
  taskBaseUrl: emulator.url,
  credential: { ...EMULATOR_CREDENTIAL },
  timeoutMs: 10_000,
};

try {
  // Unmeasured: the emulator's JIT warms up over its first thousands of requests (a cold first ceiling read half
  // of a warm one), and the relay is compared with the emulator as it runs warm.
  await measureCeiling();
  for (const engine of values.engines.split(',')) {
    // The ceiling before and after the relay's run, averaged: a machine whose load drifts meanwhile moves both alike.
    const before = await measureCeiling();
    const result = await withBenchStore(engine, (store) => measureRelay(store), benchStoreOptions());
    const ceiling = round((before + (await measureCeiling())) / 2, 0);
    console.log(
      JSON.stringify({
        suite: 'delivery',
        engine,
        ...result,
        emulatorCeilingPerSecond: ceiling,
        ratioToCeiling: round(result.deliveriesPerSecond / ceiling, 2),
        updates,
        tasks: taskCount,
        concurrency,
        machine: machine(),
      }),
    );
  }
} finally {
  await emulator.stop();
}

/** The same number of updates sent straight to the emulator with the same concurrency: the upstream's ceiling. */
async function measureCeiling(): Promise<number> {
  const client = createWorkforceClient({ upstream, clock: systemClock });
  const uuids = Array.from({ length: taskCount }, () => randomUUID());
  let sentAt = Date.now();
  const started = performance.now();
  await runPool(updates, concurrency, async (index) => {
    const outcome = await client.updatePartnerTask(uuids[index % taskCount]!, {
      taskStatus: 'inProgress',
      sentAt: new Date(sentAt++).toISOString(),
      partnerStatus: { label: `Update ${index}` },
    });
    if (outcome.kind !== 'delivered') throw new Error(`ceiling run: ${outcome.kind}`);
  });
  client.close();
  return round(updates / ((performance.now() - started) / 1000), 0);
}

async function measureRelay(store: Store) {
  const { services, tasks } = await openBenchTasks(store, taskCount);
  const client = createWorkforceClient({ upstream, clock: systemClock });
  const relay = createOutboxRelay({ store, client, clock: systemClock, log: silent, concurrency, pollMs: 1000 });
  // Each update written as a request writes it (the services: the task locked, its row, its history, the update).
  const enqueue = async (index: number) => {
    await services.nextUpdate(tasks[index % taskCount]!);
    relay.wake();
  };

  // Throughput: a backlog of N updates (written first, as after an outage) drained by the relay: deliveries/s.
  const enqueueStarted = performance.now();
  await runPool(updates, store.dialect === 'postgres' ? 32 : 1, enqueue);
  const enqueuePerSecond = round(updates / ((performance.now() - enqueueStarted) / 1000), 0);
  if (process.env.BENCH_ANALYZE && store.dialect === 'postgres') await sql`analyze outbox`.execute(store.db);
  const drainStarted = performance.now();
  relay.start();
  await waitUntilDrained(store);
  const drainSeconds = (performance.now() - drainStarted) / 1000;

  // Latency: a steady rate well under capacity, as in production, measuring enqueue-to-delivered per update.
  const pacedFrom = Date.now();
  const pacedCount = Math.min(updates, pacedRate * 5);
  const interval = 1000 / pacedRate;
  const pacedStart = performance.now();
  const writes: Promise<void>[] = [];
  for (let index = 0; index < pacedCount; index += 1) {
    const due = pacedStart + index * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    writes.push(enqueue(updates + index));
  }
  await Promise.all(writes);
  await waitUntilDrained(store);
  await relay.stop();
  client.close();

  const latencies = await deliveryLatencies(store, pacedFrom);
  return {
    deliveriesPerSecond: round(updates / drainSeconds, 0),
    enqueuePerSecond,
    pacedRatePerSecond: pacedRate,
    enqueueToDeliveredMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) },
    tokenRequests: client.tokenCache.requestCount,
    peakRssMb: round(process.resourceUsage().maxRSS / 1024, 0),
  };
}

async function deliveryLatencies(store: Store, from: number): Promise<number[]> {
  const rows = await store.db
    .selectFrom('outbox')
    .select(['created_at', 'delivered_at'])
    .where('created_at', '>=', from)
    .where('state', '=', 'delivered')
    .execute();
  return rows.map((row) => (row.delivered_at ?? 0) - row.created_at).sort((a, b) => a - b);
}

function benchStoreOptions(): StoreOptions {
  const synchronous = process.env.BENCH_SQLITE_SYNCHRONOUS;
  return synchronous === 'NORMAL' || synchronous === 'FULL' ? { sqliteSynchronous: synchronous } : {};
}
