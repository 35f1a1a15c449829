import { systemClock } from '../server/clock';
import { loadConfigOrExit } from '../server/config';
import { buildApp } from '../server/app';
import { createDeliveryCounters } from '../server/delivery/delivery-metrics';
import { createOutboxRelay, type OutboxRelay } from '../server/delivery/outbox-relay';
import { defaultRetryPolicy } from '../server/delivery/retry-policy';
import { loggerOptions } from '../server/logger';
import { openStore } from '../server/store/store';
import { createWorkforceClient } from '../server/upstream/workforce-client';
import { BARE_ROUTE } from './api-load';

/**
 * The server of the API and page benchmarks, in a process of its own so its RSS is the server's alone. It is `startServer`
 * (server/server.ts) step by step, configured from the environment like `main.ts`, plus one thing production never
 * has: `GET /bench/bare`, a constant answered by the same Fastify instance, the floor the step endpoint is compared
 * with. `startServer` listens before returning, after which Fastify accepts no new route, hence the copy.
 */
const config = loadConfigOrExit();
const store = await openStore(config.database, { sqliteSynchronous: config.sqliteSynchronous });
const counters = createDeliveryCounters();
// In emulator mode the upstream is this server's /emulator on PORT, so the caller must give a fixed PORT.
const client = createWorkforceClient({ upstream: config.upstream, clock: systemClock });
const late: { relay?: OutboxRelay } = {};
const app = await buildApp({
  config,
  clock: systemClock,
  store,
  counters,
  onUpdateEnqueued: () => late.relay?.wake(),
  tokenRequests: () => client.tokenCache.requestCount,
  logger: loggerOptions(config.logLevel),
  // BENCH_PAGE_DIRECTORY: a production build made for the benchmark, so dist/ (used by the e2e tests) is left alone.
  ...(process.env.BENCH_PAGE_DIRECTORY ? { taskOptions: { pageDirectory: process.env.BENCH_PAGE_DIRECTORY } } : {}),
});
app.get(BARE_ROUTE, async () => ({ ok: true }));
await app.listen({ port: config.port, host: config.host });

// Same relay settings as startServer: deliveries compete with requests for this process's CPU, as in production.
const relay = createOutboxRelay({
  store,
  client,
  clock: systemClock,
  log: app.log,
  metrics: counters,
  concurrency: config.deliveryConcurrency,
  leaseMs: config.upstream.timeoutMs + 5_000,
  policy: { ...defaultRetryPolicy, ...config.deliveryRetry },
});
late.relay = relay;
// BENCH_RELAY=off: the request path alone, to see what share of the server's CPU delivering takes (profiling only).
if (process.env.BENCH_RELAY !== 'off') relay.start();

const address = app.server.address();
const port = typeof address === 'object' && address !== null ? address.port : config.port;
process.send?.({ url: `http://127.0.0.1:${port}` });

process.once('SIGTERM', () => {
  void (async () => {
    await app.close();
    await relay.stop();
    client.close();
    const delivered = counters.snapshot().delivered;
    await store.close();
    process.send?.({ delivered });
    process.exit(0);
  })();
});
