import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { heldForPermission, outboxStatsByLane } from '@partner-task-kit/server/store/outbox-status.repository';
import { claimDeliverable, nextDueAt, releaseLeases } from '@partner-task-kit/server/store/outbox.repository';
import { probeWrite } from '@partner-task-kit/server/store/health.repository';
import { openStore, type Store } from '@partner-task-kit/server/store/store';
import { benchProgress, createBenchDatabase, machine, openBenchTasks, round, spawnEmulator } from './bench-support';
import { cpuBetween, postgresBackendsCpuMs, processCpuMs } from './bench-server-process';
import { latencyOf, pacedGets, pacedSteps, startScaleServer, statusCommandMs, type Latency, type ScaleServer } from './scale-server';
import { seedScale } from './seed-scale';

const progress = benchProgress('scale');

/**
 * `npm run bench -- --suites scale`: what one Postgres primary costs per operation as the data grows
 * (docs/deploying.md#how-far-one-postgres-goes). Two scratch databases on the benchmarks' Postgres, migrated by the
 * server's own code in the same run: one empty, one seeded by packages/kit-tests/bench/seed-scale.ts (100,000 tasks, 1,000,000 outbox
 * rows, a backlog of 10,000). On each: the relay's claim, the step endpoint end to end under light load, `npm run
 * outbox -- status` and `/readyz`; each reported as seeded / empty, the target being within 2×. Both databases are
 * dropped at the end.
 */
const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '100000' },
    rows: { type: 'string', default: '1000000' },
    claims: { type: 'string', default: '200' },
    steps: { type: 'string', default: '1000' },
    'step-rate': { type: 'string', default: '50' },
    readyz: { type: 'string', default: '400' },
    'status-runs': { type: 'string', default: '5' },
  },
});
const claims = Number(values.claims);
/** Rows per claim: the relay's base capacity on Postgres, 4 × its default concurrency of 16 (packages/server/src/delivery/claimed-ahead.ts). */
const CLAIM_LIMIT = 64;
const LEASE_MS = 60_000;
/** How many turns each database gets, in alternation, for every figure. */
const BATCHES = 20;

type Name = 'empty' | 'seeded';
type Pair = Record<Name, Latency>;
const names: readonly Name[] = ['empty', 'seeded'];

const loadBefore = os.loadavg();
const emulator = await spawnEmulator();
const databases = { empty: await createBenchDatabase(), seeded: await createBenchDatabase() };
try {
  const stores = {
    empty: await openStore({ kind: 'postgres', url: databases.empty.url }),
    seeded: await openStore({ kind: 'postgres', url: databases.seeded.url }),
  };
  let seeding;
  let inStore;
  try {
    seeding = await seedScale(stores.seeded, { tasks: Number(values.tasks), rows: Number(values.rows) });
    progress(`seeded ${seeding.tasks} tasks, ${seeding.outboxRows} outbox rows in ${seeding.seconds} s`);
    inStore = await measureStores(stores);
  } finally {
    await stores.empty.close();
    await stores.seeded.close();
  }
  const statusCommand = await paired(Number(values['status-runs']), (name) => statusCommandMs(databases[name].url));
  const server = await measureServers();
  const figures = { ...inStore, statusCommand, ...server.figures };
  const ratios = Object.fromEntries(
    Object.entries(figures)
      .filter((entry): entry is [string, Pair] => 'seeded' in entry[1])
      .flatMap(([figure, pair]) => [
        [`${figure}P50`, round(pair.seeded.p50 / pair.empty.p50, 2)],
        [`${figure}P99`, round(pair.seeded.p99 / pair.empty.p99, 2)],
      ]),
  );
  console.log(
    JSON.stringify({
      suite: 'scale',
      database: 'postgres',
      seeded: seeding,
      figures,
      ratios,
      cpuMsPerStepRequest: server.cpuMsPerStepRequest,
      failedRequests: server.failed,
      claimLimit: CLAIM_LIMIT,
      stepRequests: Number(values.steps),
      stepRatePerSecond: Number(values['step-rate']),
      loadAverage: { before: loadBefore.map((value) => round(value, 2)), after: os.loadavg().map((value) => round(value, 2)) },
      machine: machine(),
    }),
  );
} finally {
  await emulator.stop();
  await databases.empty.cleanup();
  await databases.seeded.cleanup();
}

/**
 * What the relay, the operator's commands and readiness ask of the store itself, timed in this process. A backlog of
 * 128 tasks with two updates each is written first on both databases, so every claim finds `CLAIM_LIMIT` rows (on the
 * seeded one its own due backlog comes first, being older); each claim's leases are released after it, untimed, so
 * every claim finds the same rows.
 */
async function measureStores(stores: Record<Name, Store>) {
  for (const name of names) await writeBacklog(stores[name]);
  const workerId = `scale-bench-${process.pid}`;
  const claimOnce = async (store: Store, anyDueTime: boolean) => {
    const limit = anyDueTime ? 1 : CLAIM_LIMIT;
    const started = performance.now();
    // In its own transaction, as the relay claims (packages/server/src/delivery/relay-claims.ts).
    const rows = await store.transact((trx) => claimDeliverable(trx, { now: Date.now(), leaseMs: LEASE_MS, limit, workerId, anyDueTime }));
    const elapsed = performance.now() - started;
    if (rows.length !== limit) throw new Error(`a claim took ${rows.length} rows, not ${limit}`);
    await releaseLeases(store.db, workerId);
    return elapsed;
  };
  // A database younger than autovacuum's first pass has no statistics: the plan the relay gets then, kept apart.
  const claimBeforeAnalyze = await paired(50, (name) => claimOnce(stores[name], false), 0, ['empty']);
  // Then as autovacuum leaves it within a minute (the seeded one was analyzed by its seeding), and without the bulk
  // load's dirty pages still being written out under the measurements (a superuser's CHECKPOINT; skipped otherwise).
  await sql`vacuum (analyze) outbox, tasks`.execute(stores.empty.db);
  await sql`checkpoint`
    .execute(stores.seeded.db)
    .catch(() => progress('no CHECKPOINT (not a superuser): the figures may share the disk with it'));
  const claim = await paired(claims, (name) => claimOnce(stores[name], false));
  // A probe while the platform is away: one row, the oldest-waiting of a task the platform accepted, due or not.
  const probeClaim = await paired(Math.min(claims, 50), (name) => claimOnce(stores[name], true));
  const nextDue = await paired(50, (name) => durationOf(() => nextDueAt(stores[name].db)));
  // The repository calls of `npm run outbox -- status` (packages/server/src/cli/outbox.ts); /metrics reads the same counts.
  const statusCalls = await paired(10, (name) =>
    durationOf(async () => {
      await outboxStatsByLane(stores[name].db, Date.now());
      await heldForPermission(stores[name].db, Date.now());
    }),
  );
  const heartbeatWrite = await paired(100, (name) =>
    durationOf(async () => {
      const probe = await probeWrite(stores[name].db, Date.now());
      if (!probe.ok) throw new Error(`the heartbeat write failed: ${probe.detail}`);
    }),
  );
  return { claimBeforeAnalyze: claimBeforeAnalyze.empty, claim, probeClaim, nextDue, statusCalls, heartbeatWrite };
}

async function writeBacklog(store: Store): Promise<void> {
  // Two updates a task, each written as a request writes it: the task's start, then a new attempt.
  const { services, tasks } = await openBenchTasks(store, 128);
  for (const task of tasks) for (let update = 0; update < 2; update += 1) await services.nextUpdate(task);
}

/**
 * Both servers at once, each idle while the other is measured, the load alternating between them in BATCHES batches:
 * steps, then /readyz, then /metrics.
 */
async function measureServers() {
  const servers = {} as Record<Name, ScaleServer>;
  try {
    for (const name of names) servers[name] = await startScaleServer(databases[name].url, emulator.url);
    const rate = Number(values['step-rate']);
    let failed = 0;
    const count = (result: { samples: number[]; failed: number }) => ((failed += result.failed), result.samples);
    // Warm-up (JIT, the pool's connections, the relay's token): not reported.
    for (const name of names) await pacedSteps(servers[name], rate, 200);
    // The CPU each step request costs the server (the relay's delivery of its update included) and the primary.
    const used = { empty: { server: 0, postgres: 0, requests: 0 }, seeded: { server: 0, postgres: 0, requests: 0 } };
    const step = await batches(Number(values.steps), async (name, size) => {
      const database = new URL(databases[name].url).pathname.slice(1);
      const before = { server: processCpuMs(servers[name].pid), postgres: await postgresBackendsCpuMs(database) };
      const samples = count(await pacedSteps(servers[name], rate, size));
      used[name].postgres += cpuBetween(before.postgres, await postgresBackendsCpuMs(database));
      used[name].server += processCpuMs(servers[name].pid) - before.server;
      used[name].requests += size;
      return samples;
    });
    const perRequest = (name: Name) => ({
      server: round(used[name].server / used[name].requests, 3),
      postgres: round(used[name].postgres / used[name].requests, 3),
    });
    const readyz = await batches(Number(values.readyz), async (name, size) =>
      count(await pacedGets(`${servers[name].url}/readyz`, size, 25)),
    );
    const scrape = (name: Name) => ({ authorization: `Bearer ${servers[name].metricsToken}` });
    const metrics = await batches(20, async (name, size) =>
      count(await pacedGets(`${servers[name].url}/metrics`, size, 200, scrape(name))),
    );
    return {
      figures: { step, readyz, metrics },
      cpuMsPerStepRequest: { empty: perRequest('empty'), seeded: perRequest('seeded') },
      failed,
    };
  } finally {
    for (const server of Object.values(servers)) await server.stop();
  }
}

/**
 * `total` samples per database, taken in BATCHES batches alternating between them, so that a burst of other work on
 * the machine falls on both alike rather than on one database's p99.
 */
async function batches(total: number, run: (name: Name, size: number) => Promise<number[]>): Promise<Pair> {
  const samples: Record<Name, number[]> = { empty: [], seeded: [] };
  for (let batch = 0; batch < BATCHES; batch += 1)
    for (const name of names) samples[name].push(...(await run(name, Math.ceil(total / BATCHES))));
  return { empty: latencyOf(samples.empty), seeded: latencyOf(samples.seeded) };
}

/** `count` timed runs per database after a fifth as many unreported ones (warmUp), alternating in batches. */
async function paired(count: number, run: (name: Name) => Promise<number>, warmUp = Math.ceil(count / 5), only: readonly Name[] = names) {
  for (const name of only) for (let index = 0; index < warmUp; index += 1) await run(name);
  const samples: Record<Name, number[]> = { empty: [], seeded: [] };
  const batchSize = Math.max(1, Math.ceil(count / BATCHES));
  while (only.some((name) => samples[name].length < count)) {
    for (const name of only)
      for (let index = 0; index < batchSize && samples[name].length < count; index += 1) samples[name].push(await run(name));
  }
  return { empty: latencyOf(samples.empty), seeded: latencyOf(samples.seeded) };
}

async function durationOf(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
