import { parseArgs } from 'node:util';
import { systemClock } from '@partner-task-kit/server/clock';
import { createOutboxRelay } from '@partner-task-kit/server/delivery/outbox-relay';
import { defaultRetryPolicy } from '@partner-task-kit/server/delivery/retry-policy';
import { EMULATOR_CREDENTIAL } from '@partner-task-kit/dev';
import { outboxStatsByLane } from '@partner-task-kit/server/store/outbox-status.repository';
import type { Store } from '@partner-task-kit/server/store/store';
import { createWorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { control } from '../helpers/emulator-control';
import { machine, round, spawnEmulator, withBenchStore, type EmulatorProcess } from './bench-support';
import { taskServices } from '../helpers/task-services';

/**
 * `npm run bench -- --suites recovery`: the drain after an upstream outage, in real time. Updates of N tasks are
 * waiting when the platform starts answering 503 for `--outage-seconds`; then it recovers. Reported: how long from
 * its return until every update is delivered (goal: close to backlog ÷ throughput, under 20 s), and how many requests
 * the relay sent during the outage (the circuit's probes, not one per update per backoff). Both engines run in the
 * same outage window, each against its own emulator process, with the production retry policy.
 */
const { values } = parseArgs({
  options: {
    'outage-seconds': { type: 'string', default: '90' },
    tasks: { type: 'string', default: '50' },
    engines: { type: 'string', default: 'sqlite,postgres' },
  },
});
const outageMs = Number(values['outage-seconds']) * 1000;
const taskCount = Number(values.tasks);
const silent = process.env.BENCH_VERBOSE
  ? { info: (o: object, m: string) => console.error(m, o), warn: () => {}, error: (o: object, m: string) => console.error(m, o) }
  : { info: () => {}, warn: () => {}, error: () => {} };

try {
  const results = await Promise.all(
    values.engines.split(',').map((engine) => withBenchStore(engine, (store) => measureRecovery(engine, store))),
  );
  for (const result of results) console.log(JSON.stringify({ suite: 'recovery', ...result, machine: machine() }));
} catch (error) {
  // The other engine's relay and emulator would keep the process alive: end it here, with the cause.
  console.error(error);
  process.exit(1);
}

async function measureRecovery(engine: string, store: Store) {
  const emulator: EmulatorProcess = await spawnEmulator();
  const platform = control(emulator.url);
  try {
    await platform.fault({ endpoint: 'partnerTask', kind: 'status', status: 503, count: 1_000_000 });
    // Each task's one update, its `ready` written as a worker's first visit writes it.
    const services = taskServices(store);
    for (let index = 0; index < taskCount; index += 1) await services.open();
    const url = emulator.url;
    const client = createWorkforceClient({
      upstream: { authUrl: url, baseUrl: url, taskBaseUrl: url, credential: { ...EMULATOR_CREDENTIAL }, timeoutMs: 10_000 },
      clock: systemClock,
    });
    const relay = createOutboxRelay({ store, client, clock: systemClock, log: silent, policy: defaultRetryPolicy, concurrency: 16 });
    relay.start();
    await new Promise((resolve) => setTimeout(resolve, outageMs));
    const sentDuringOutage = (await platform.requests('partnerTask')).length;

    await platform.clearFaults();
    const back = performance.now();
    let firstDeliveryMs: number | undefined;
    for (;;) {
      const { pending, delivered } = (await outboxStatsByLane(store.db, Date.now())).platform;
      if (firstDeliveryMs === undefined && delivered > 0) firstDeliveryMs = performance.now() - back;
      if (pending === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const drainMs = performance.now() - back;
    await relay.stop();
    client.close();
    return {
      engine,
      outageSeconds: outageMs / 1000,
      tasks: taskCount,
      drainAfterOutageSeconds: round(drainMs / 1000, 2),
      firstDeliveryAfterReturnSeconds: round((firstDeliveryMs ?? drainMs) / 1000, 2),
      requestsDuringOutage: sentDuringOutage,
      probeMaxSeconds: defaultRetryPolicy.probeMaxMs / 1000,
    };
  } finally {
    await emulator.stop();
  }
}
