import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { buildApp, buildMetricsApp } from './app.ts';
import { systemClock, type Clock } from './clock.ts';
import { EMULATOR_PREFIX, type Config, type PlatformAddresses } from './config.ts';
import { deliveryLeaseMs } from './delivery/delivery-lease.ts';
import { createDeliveryMetrics, registerOutboxGauges } from './delivery/delivery-metrics.ts';
import { createOutboxRelay, type OutboxRelay } from './delivery/outbox-relay.ts';
import { partnerEndpointsOf, partnerEventsGateOf, startPartnerLane } from './delivery/partner-lane.ts';
import { singleEndpoint } from './delivery/partner-endpoints.ts';
import type { OutboxRelayOptions } from './delivery/relay-options.ts';
import { defaultRetryPolicy } from './delivery/retry-policy.ts';
import { WakeSignal } from './delivery/wake-signal.ts';
import { EMULATOR_MODE, loadDevTools, type DevTools } from './dev-tools/dev-tools.ts';
import type { FutureFlags } from './future-flags.ts';
import { silentLogger, type Logger } from './logger.ts';
import { describeDatabaseWait, StartFailure } from './start-failure.ts';
import { createPublicListener } from './http/public-listener.ts';
import { openStoreWhenReachable, type Store, type StoreOptions } from './store/store.ts';
import { purgeUnconfirmedTasks } from './store/tasks.repository.ts';
import { startRetention } from './retention/retention-job.ts';
import type { UploadFiles } from './uploads/upload-files.ts';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';
import { removeClaimedUploads } from './uploads/upload-removal.ts';
import { uploadFilesOf } from './uploads/upload-store.ts';
import { pacingFor } from './retention/batches.ts';
import { clientsPerTenant, type TenantClients } from './delivery/delivery-clients.ts';
import { openCompanyCredentials, type CompanyCredentials } from './tenants/company-credentials.ts';

export interface RunningServer {
  app: FastifyInstance;
  /** http://127.0.0.1:<port> */
  url: string;
  /** With METRICS_PORT: the operators' listener, e.g. http://127.0.0.1:9464 (its `/metrics`); else undefined. */
  metricsUrl: string | undefined;
  config: Config;
  store: Store;
  /** The platform clients, one per tenant (one, `default`, with a single credential). */
  clients: TenantClients;
  credentials: CompanyCredentials;
  relay: OutboxRelay;
  /** The first step of a stop: `/readyz` answers 503 `shutting_down`, every other route is served as before. */
  drain(): void;
  /** Graceful: stop accepting, finish or release deliveries in flight, close the database. */
  close(): Promise<void>;
}

export interface StartServerOptions {
  /** The workflows this deployment runs: the app's (docs/architecture.md#dependencies-passed-in). */
  workflows: WorkflowCatalog;
  clock?: Clock;
  log?: Logger;
  /** Among them the app's own migrations, applied after the engine's (docs/operations.md#an-apps-own-migrations). */
  store?: StoreOptions;
  relay?: Pick<OutboxRelayOptions, 'concurrency' | 'leaseMs' | 'pollMs' | 'policy' | 'workerId'>;
  /** The partner lane's relay (events to PARTNER_WEBHOOK_URL). */
  partnerRelay?: Pick<OutboxRelayOptions, 'concurrency' | 'pollMs'>;
  /** The built page to serve; dist/ by default. */
  pageDirectory?: string;
  /** How often the tenants are read again (5 s): a change made with `npm run tenants` applies within this. */
  tenantsRefreshMs?: number;
  /** Adds routes before the app serves (Fastify accepts none after): a partner's own endpoints, the benchmark's floor. */
  extendApp?: (app: FastifyInstance) => void | Promise<void>;
  /** Where uploads' bytes are kept; by default the store the configuration names (upload-store.ts). */
  uploadFiles?: UploadFiles;
  /**
   * The app's future flags, resolved (future-flags.ts): what a changed behaviour reads to choose between the old and
   * the new until the next major version. Absent: every flag off, as for an app that turned none on.
   */
  future?: FutureFlags;
  /** Emulator mode's tools; by default @partner-task-kit/dev's, loaded at the start (dev-tools/dev-tools.ts). */
  devTools?: DevTools;
}

/**
 * Wires the server once, in the order a status update travels: the store (migrations run here), the app that writes
 * updates, then the upstream client and the relay that delivers them. What the app and the relay share (the wake
 * signal, the metrics registry, the logger) is made first and handed to both. The listener comes before all of them,
 * so an orchestrator's probes are answered while the database is awaited (docs/operations.md#start-and-stop).
 */
export async function startServer(config: Config, options: StartServerOptions): Promise<RunningServer> {
  // First: emulator mode without the dev tools installed (a production install) stops here, before anything is opened.
  const devTools = config.emulatorMode ? (options.devTools ?? (await loadDevTools(EMULATOR_MODE))) : undefined;
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const outboxWake = new WakeSignal();
  const partnerWake = new WakeSignal();

  const listener = createPublicListener(config.timeouts);
  let metricsApp: FastifyInstance | undefined;
  const closeListeners = async () => {
    await listener.close();
    await metricsApp?.close();
  };
  let port: number;
  try {
    port = await listener.listen(config.port, config.host).catch((error: unknown) => {
      throw new StartFailure('listen', error);
    });
    if (config.metrics.listener) {
      metricsApp = await buildMetricsApp({ config, metrics, log });
      await metricsApp.listen(config.metrics.listener).catch((error: unknown) => {
        throw new StartFailure('metrics-listen', error);
      });
    }
  } catch (error) {
    await closeListeners();
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;

  const store = await openStoreWhenReachable(
    config.database,
    {
      sqliteSynchronous: config.sqliteSynchronous,
      onCheckpointError: (message) => log.warn({ error: message }, 'background WAL checkpoint failed; SQLite will checkpoint inline'),
      onConnectionError: (error) => log.warn({ err: error }, 'a database connection was lost; the pool opens a new one when needed'),
      ...options.store,
    },
    {
      timeoutMs: config.databaseStartupTimeoutMs,
      onRetry: ({ attempt, error, retryInMs }) => {
        listener.waitingFor(describeDatabaseWait(error));
        log.warn(
          { attempt, retryInMs, error: error instanceof Error ? error.message : String(error) },
          'waiting for the database: it does not answer yet',
        );
      },
    },
  ).catch(async (error: unknown) => {
    await closeListeners();
    throw new StartFailure('database', error);
  });
  listener.starting();
  registerOutboxGauges(metrics, store, clock);
  let credentials: CompanyCredentials;
  try {
    credentials = await openCompanyCredentials(config.tenancy, store);
  } catch (error) {
    await closeListeners();
    await store.close();
    throw error;
  }
  // A tenant added, rotated or removed with `npm run tenants` reaches this process within this interval.
  credentials.watch(options.tenantsRefreshMs ?? TENANTS_REFRESH_MS, (error) =>
    log.error({ err: error }, 'could not read the tenants; keeping the credentials read before'),
  );
  // Emulator mode without PARTNER_WEBHOOK_URL: the events go to a receiver in this process, and without
  // PARTNER_BACKEND_URL offers come from a stand-in in it, over loopback HTTP (docs/development.md#the-partner-backend-panel).
  const emulatorMode = devTools?.emulatorMode({
    workflows: options.workflows,
    receiveEvents: config.partnerWebhook.kind === 'emulator-receiver',
    answerOffers: config.partnerBackend.kind === 'emulator-stand-in',
  });
  const { eventsSecret, offersSecret } = emulatorMode ?? {};
  const partnerEndpoints =
    eventsSecret === undefined
      ? partnerEndpointsOf(config.partnerWebhook, credentials, clock)
      : singleEndpoint(`${url}${EMULATOR_PREFIX}/partner-backend/events`, eventsSecret);
  // In tenant mode each company's webhook comes and goes with that refresh, so the gate answers per company.
  const partnerEvents = partnerEventsGateOf(partnerEndpoints);
  // One store of uploads' bytes for the routes that take and serve them and the jobs that remove them.
  const uploadFiles = options.uploadFiles ?? uploadFilesOf(config);

  const app = await buildApp({
    serverFactory: listener.serverFactory,
    config,
    clock,
    store,
    metrics,
    log,
    workflows: options.workflows,
    onUpdateEnqueued: () => outboxWake.wake(),
    credentials: partnerEvents
      ? {
          serves: (company: string) => credentials.serves(company),
          partnerEvents: { tells: partnerEvents, enqueued: () => partnerWake.wake() },
        }
      : credentials,
    ...(emulatorMode ? { emulatorMode: { tools: emulatorMode, selfUrl: url } } : {}),
    ...(offersSecret === undefined
      ? {}
      : { offerBackend: { url: `${url}${EMULATOR_PREFIX}/partner-backend`, secrets: () => [offersSecret] } }),
    taskOptions: { uploadFiles, ...(options.pageDirectory === undefined ? {} : { pageDirectory: options.pageDirectory }) },
  });
  try {
    await options.extendApp?.(app);
    await app.ready();
  } catch (error) {
    credentials.stop();
    await closeListeners();
    await app.close();
    await store.close();
    throw error;
  }
  // From here every request is the app's, on the port that has listened all along.
  listener.serve();
  const upstream = config.emulatorMode ? loopbackEmulator(config.upstream, port) : config.upstream;

  const leaseMs = deliveryLeaseMs(config.upstream.timeoutMs);
  const clients = clientsPerTenant({ credentials, upstream, clock, metrics, retireAfterMs: leaseMs });
  const deliveryMetrics = createDeliveryMetrics(metrics);
  const policy = { ...defaultRetryPolicy, ...config.deliveryRetry };
  const relay = createOutboxRelay({
    store,
    client: clients,
    clock,
    log,
    metrics: deliveryMetrics,
    partnerEvents,
    wakeSignal: outboxWake,
    concurrency: config.deliveryConcurrency,
    leaseMs,
    policy,
    ...options.relay,
  });
  relay.start();
  const { timeoutMs } = config.upstream;
  const partnerLane = startPartnerLane({
    ...{ endpoints: partnerEndpoints, store, clock, log, wakeSignal: partnerWake, timeoutMs, leaseMs, policy },
    ...{ metrics: deliveryMetrics.forLane('partner'), relay: options.partnerRelay },
  });
  const stopPurging = purgeEveryHour({ store, clock, retentionMs: config.unconfirmedTaskRetentionMs, log, uploadFiles });
  // docs/operations.md#retention: delivered rows, finished tasks' answers and forgotten files past their time, at start then hourly.
  const retention = startRetention({ store, clock, log, retention: config.retention, uploadFiles });

  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    metricsUrl: metricsApp && listeningUrl(metricsApp),
    config: { ...config, upstream },
    store,
    clients,
    credentials,
    relay,
    drain: () => listener.drain(),
    close: () =>
      (closing ??= (async () => {
        // Requests first (no new rows), then the relay (it may still write delivery outcomes), then the database.
        // The listener waits for the requests in flight; the app's own resources (the emulator's state) close after.
        await closeListeners();
        await app.close();
        stopPurging();
        await Promise.all([relay.stop(), partnerLane?.stop(), retention.stop()]);
        clients.close();
        credentials.stop();
        await store.close();
      })()),
  };
}

const TENANTS_REFRESH_MS = 5_000;

/**
 * Rejected tasks, and tasks whose every update died, are kept `retentionMs` for an operator's questions, then purged
 * (docs/decisions/008-a-deputy-for-many-companies.md: an invented task costs nothing lasting). At start, then hourly, in batches until none are left.
 */
function purgeEveryHour(deps: { store: Store; clock: Clock; retentionMs: number; log: Logger; uploadFiles: UploadFiles }): () => void {
  const { store, clock, retentionMs, log } = deps;
  const purge = async () => {
    let total = 0;
    for (let purged = -1; purged !== 0; total += purged)
      purged = await purgeUnconfirmedTasks(store.db, clock.now() - retentionMs, clock.now());
    if (total > 0) log.info({ tasks: total, retentionMs }, 'purged rejected and never-confirmed tasks past their retention');
    // Their files were claimed with them (docs/operations.md#files); a failure here leaves them to the retention job.
    if (total > 0) await removeClaimedUploads(store, deps.uploadFiles, {}, pacingFor(store.dialect));
  };
  const run = () =>
    void purge().catch((error: unknown) => log.warn({ err: error }, 'could not purge old unconfirmed tasks; trying again in an hour'));
  run();
  const timer = setInterval(run, 60 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Where a scraper on this machine reaches a listener: its own address, or loopback when it listens on every one. */
function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the metrics listener has no address');
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/** In emulator mode the upstream is this very server: its address is known only once it listens (PORT may be 0). */
function loopbackEmulator(upstream: PlatformAddresses, listeningPort: number): PlatformAddresses {
  const url = `http://127.0.0.1:${listeningPort}${EMULATOR_PREFIX}`;
  return { ...upstream, authUrl: url, baseUrl: url, taskBaseUrl: url };
}
