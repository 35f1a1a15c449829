import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import type { Clock } from './clock.ts';
import { EMULATOR_MODE_CREDENTIAL, EMULATOR_PREFIX, type Config } from './config.ts';
import type { EmulatorMode } from './dev-tools/dev-tools.ts';
import { devHost } from './dev-tools/dev-host.ts';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './http/error-handling.ts';
import { metricsRoute } from './http/metrics-route.ts';
import { operationsRoutes } from './http/operations-routes.ts';
import { warnOfUntrustedProxy } from './http/proxy-warning.ts';
import { AccessLogController, type Logger } from './logger.ts';
import type { Store } from './store/store.ts';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';
import { singleCredentialGate, type CompanyGate } from './tenants/company-credentials.ts';
import { taskApi, type TaskApiOptions } from './task-api/task-api.ts';

export interface AppDependencies {
  config: Config;
  clock: Clock;
  store: Store;
  /** Where every metric of this server is registered; `/metrics` renders it (where `config.metrics` says). */
  metrics: Registry;
  /** Rung after a request committed an update, so the relay delivers it without waiting for a poll. */
  onUpdateEnqueued: () => void;
  /** The workflows this deployment runs, handed in by the app (docs/architecture.md#dependencies-passed-in). */
  workflows: WorkflowCatalog;
  /** Which companies sessions may open for; by default the single credential's, from the configuration. */
  credentials?: CompanyGate;
  log?: Logger;
  /**
   * In emulator mode, the emulator and the stand-in of the partner's backend from @partner-task-kit/dev (server.ts
   * loads them), and this server's own address, which the stand-in's buttons call.
   */
  emulatorMode?: { tools: EmulatorMode; selfUrl: string };
  /** Overrides for the task API (tests turn rate limits off, point at another page build, fix the session secret). */
  taskOptions?: Partial<Pick<TaskApiOptions, 'rateLimits' | 'pageDirectory' | 'sessionSecret' | 'uploads' | 'uploadFiles'>>;
  /** Emulator mode's stand-in of the partner's backend for offers (server.ts makes it); else PARTNER_BACKEND_URL's. */
  offerBackend?: TaskApiOptions['offerBackend'];
  /**
   * The listener the app is built onto, already listening (packages/server/src/http/public-listener.ts): it sets the timeouts
   * below on its node:http server and answers by itself before the app serves and while the server closes.
   */
  serverFactory?: FastifyServerOptions['serverFactory'];
}

/**
 * Builds the application and never listens (docs/architecture.md#dependencies-passed-in), so tests build it side by side and `server.ts`
 * alone decides where it runs.
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    // Typed as Fastify's base logger so plugins written against the default instance type accept this app.
    ...(deps.log ? { loggerInstance: deps.log as FastifyBaseLogger } : { logger: false }),
    // docs/api.md#routes: bodies are small JSON documents; anything bigger is refused with 413 before it is parsed.
    bodyLimit: 64 * 1024,
    // Fastify's own 503 while closing is not in the contract's shape: the public listener answers instead.
    return503OnClosing: false,
    // Behind a reverse proxy the client is in X-Forwarded-For, trusted only from the configured hops or addresses.
    ...trustedProxies(deps.config.trustProxy),
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // A stalled client (headers trickling in, a body that never ends, an idle keep-alive) is cut off in seconds.
    requestTimeout: deps.config.timeouts.requestMs,
    keepAliveTimeout: deps.config.timeouts.keepAliveMs,
    http: {
      headersTimeout: deps.config.timeouts.headersMs,
      // Node looks for overdue requests on this interval (30 s by default), which would stretch every timeout above.
      connectionsCheckingInterval: Math.min(1_000, deps.config.timeouts.headersMs),
    },
    logController: new AccessLogController(),
    ...(deps.serverFactory ? { serverFactory: deps.serverFactory } : {}),
  });
  // The contract's zod schemas validate each route's input and type its handler (fastify-type-provider-zod).
  app.setValidatorCompiler(validatorCompiler);
  // Answers are typed by their schemas at compile time and parsed by the page; encoding each one through zod again
  // here would cost the step path CPU for no check the types do not already make.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  registerErrorHandling(app);
  if (deps.config.trustProxy === undefined) warnOfUntrustedProxy(app);

  await app.register(operationsRoutes, { store: deps.store, clock: deps.clock });
  // Outside emulator mode the public listener serves the metrics only behind METRICS_TOKEN (docs/operations.md#metrics).
  if (deps.config.metrics.public) await app.register(metricsRoute, { metrics: deps.metrics, token: deps.config.metrics.token });
  await app.register(taskApi, {
    config: deps.config,
    clock: deps.clock,
    store: deps.store,
    onUpdateEnqueued: deps.onUpdateEnqueued,
    companies: deps.credentials ?? defaultGate(deps.config),
    workflows: deps.workflows,
    metrics: deps.metrics,
    ...(deps.offerBackend ? { offerBackend: deps.offerBackend } : {}),
    ...deps.taskOptions,
  });

  if (deps.config.emulatorMode) {
    if (!deps.emulatorMode) throw new Error('emulator mode needs the dev tools: server.ts loads them (dev-tools/dev-tools.ts)');
    // docs/decisions/006-emulator-mode-is-the-default.md: mounted in-process but reached over real loopback HTTP, like the real platform.
    await app.register(deps.emulatorMode.tools.plugin, {
      prefix: EMULATOR_PREFIX,
      credentials: [{ ...EMULATOR_MODE_CREDENTIAL }],
      control: deps.config.previewEnabled,
      stateFile: deps.config.emulatorStateFile,
      selfUrl: deps.emulatorMode.selfUrl,
      offerTimeoutMs: deps.config.offerTimeoutMs,
      host: devHost({ store: deps.store, clock: deps.clock, workflows: deps.workflows }),
    });
  }
  return app;
}

/**
 * The operators' listener of METRICS_PORT: `/metrics` alone, in the error shape of the public one, on an address of
 * its own (loopback by default), so a scraper or sidecar reads it and the public listener need not serve it.
 */
export async function buildMetricsApp(deps: Pick<AppDependencies, 'config' | 'metrics' | 'log'>): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.log ? { loggerInstance: deps.log as FastifyBaseLogger } : { logger: false }),
    return503OnClosing: false,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    requestTimeout: deps.config.timeouts.requestMs,
    keepAliveTimeout: deps.config.timeouts.keepAliveMs,
    logController: new AccessLogController(),
  });
  registerErrorHandling(app);
  await app.register(metricsRoute, { metrics: deps.metrics, token: deps.config.metrics.token });
  return app;
}

/** A hop count becomes proxy-addr's function form (Fastify's types take no number): trust the nearest `hops` hops. */
function trustedProxies(trust: Config['trustProxy']): { trustProxy?: string[] | ((address: string, hop: number) => boolean) } {
  if (trust === undefined) return {};
  if (typeof trust === 'number') return { trustProxy: (_address, hop) => hop < trust };
  return { trustProxy: trust };
}

function defaultGate(config: Config): CompanyGate {
  if (config.tenancy.mode === 'tenants') throw new Error('tenant mode needs the tenants read from the database: pass `credentials`');
  return singleCredentialGate(config.tenancy);
}
