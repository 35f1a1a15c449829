import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from './app';
import { systemClock, type Clock } from './clock';
import { OffsetClock } from './emulator/emulator-clock';
import { EMULATOR_PREFIX, type Config } from './config';
import { createDeliveryCounters } from './delivery/delivery-metrics';
import { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './delivery/outbox-relay';
import { defaultRetryPolicy } from './delivery/retry-policy';
import { openStore, type Store, type StoreOptions } from './store/store';
import { createWorkforceClient, type WorkforceClient } from './upstream/workforce-client';

const LEASE_MARGIN_MS = 5_000;

export interface RunningServer {
  app: FastifyInstance;
  /** http://127.0.0.1:<port> */
  url: string;
  config: Config;
  store: Store;
  client: WorkforceClient;
  relay: OutboxRelay;
  /** Graceful: stop accepting, finish or release deliveries in flight, close the database. */
  close(): Promise<void>;
}

export interface StartServerOptions {
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  store?: StoreOptions;
  relay?: Pick<OutboxRelayOptions, 'concurrency' | 'leaseMs' | 'pollMs' | 'policy' | 'workerId'>;
  /** The built page to serve; dist/ by default. */
  pageDirectory?: string;
  /** Adds routes before listening (Fastify accepts none after): a partner's own endpoints, the benchmark's floor. */
  extendApp?: (app: FastifyInstance) => void | Promise<void>;
}

/** Opens the store (migrations run here), builds the app, listens, then starts delivering the outbox. */
export async function startServer(config: Config, options: StartServerOptions = {}): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  // Bound once built or listening: in emulator mode the upstream is this server, whose port is known only then.
  const late: { app?: FastifyInstance; client?: WorkforceClient; relay?: OutboxRelay } = {};
  const store = await openStore(config.database, {
    sqliteSynchronous: config.sqliteSynchronous,
    onCheckpointError: (message) => late.app?.log.warn({ error: message }, 'background WAL checkpoint failed; SQLite will checkpoint inline'),
    ...options.store,
  });
  const counters = createDeliveryCounters();

  const emulatorClock = config.emulatorMode ? new OffsetClock() : undefined;
  const app = await buildApp({
    config,
    clock,
    store,
    counters,
    onUpdateEnqueued: () => late.relay?.wake(),
    tokenRequests: () => late.client?.tokenCache.requestCount ?? 0,
    ...(emulatorClock ? { emulatorClock } : {}),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.pageDirectory === undefined ? {} : { taskOptions: { pageDirectory: options.pageDirectory } }),
  });
  late.app = app;

  try {
    await options.extendApp?.(app);
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await store.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const running = config.emulatorMode ? withLoopbackEmulator(config, port) : config;

  const client = createWorkforceClient({ upstream: running.upstream, clock });
  const relay = createOutboxRelay({ store, client, clock, log: app.log, metrics: counters, concurrency: config.deliveryConcurrency,
    // A call ends within its timeout, so a lease a little longer never lapses under a live relay, and rows leased by a
    // killed process are free again within seconds of its restart.
    leaseMs: config.upstream.timeoutMs + LEASE_MARGIN_MS,
    policy: { ...defaultRetryPolicy, ...config.deliveryRetry },
    ...options.relay,
  });
  Object.assign(late, { client, relay });
  relay.start();

  let closing: Promise<void> | undefined;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    config: running,
    store,
    client,
    relay,
    close: () =>
      (closing ??= (async () => {
        // Requests first (no new rows), then the relay (it may still write delivery outcomes), then the database.
        await app.close();
        await relay.stop();
        client.close();
        await store.close();
      })()),
  };
}

/** In emulator mode the upstream is this very server: its address is known only once it listens (PORT may be 0). */
function withLoopbackEmulator(base: Config, listeningPort: number): Config {
  const url = `http://127.0.0.1:${listeningPort}${EMULATOR_PREFIX}`;
  return { ...base, upstream: { ...base.upstream, authUrl: url, baseUrl: url, taskBaseUrl: url } };
}
