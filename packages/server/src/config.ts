import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseEnv } from 'node:util';
import { blankToUndefined, environmentSchema, type Environment } from './config-environment.ts';
import {
  checkCredentials,
  checkPlatformUrls,
  checkSettings,
  describeValue,
  metricsExposure,
  modeOf,
  type ConfigFindings,
  type MetricsExposure,
} from './config-checks.ts';
import { parseSensitiveKeys, type SensitiveKey } from './sensitive/sensitive-keys.ts';
import { partnerBackendOf, partnerWebhookOf, type PartnerBackendConfig, type PartnerWebhookConfig } from './config-partner-webhook.ts';
import { uploadsOf, type UploadsConfig } from './config-uploads.ts';

/**
 * The one place that reads the environment (docs/architecture.md#configuration-in-one-module). Every variable is validated at start; every bad one is
 * reported on its own line, then the start stops.
 */

export const EMULATOR_PREFIX = '/emulator';

/**
 * The credential the server uses in emulator mode, which the emulator it mounts accepts (app.ts), as the emulator of
 * @partner-task-kit/dev does by default. Not a secret: it opens only the emulator.
 */
export const EMULATOR_MODE_CREDENTIAL = { key: 'emulator-key', secret: 'emulator-secret' } as const;

const DAY_MS = 24 * 60 * 60_000;

/** Where the platform is (docs/platform.md#addresses) and how long a call may take: shared by every credential. */
export interface PlatformAddresses {
  authUrl: string;
  baseUrl: string;
  taskBaseUrl: string;
  timeoutMs: number;
}

export interface ApiCredential {
  key: string;
  secret: string;
}

/** What one client of the platform needs: the addresses and one credential (docs/platform.md#authentication). */
export interface UpstreamConfig extends PlatformAddresses {
  credential: ApiCredential;
}

/**
 * Whose credential acts for a company (docs/decisions/008-a-deputy-for-many-companies.md). `single`: one credential (WX_API_KEY, or the emulator's)
 * for the companies of WX_COMPANY_UUIDS, or for any company when unset. `tenants`: each company's own, from the
 * database, Secrets sealed under CREDENTIALS_KEY.
 */
export type Tenancy =
  { mode: 'single'; credential: ApiCredential; companies: ReadonlySet<string> | undefined } | { mode: 'tenants'; credentialsKey: Buffer };

/** @internal */
export interface Config {
  port: number;
  /** Under `npm run dev`, the server's own loopback port behind Vite; undefined: a free one (docs/development.md#npm-run-dev). */
  devServerPort: number | undefined;
  host: string;
  /** True when neither WX_API_KEY nor CREDENTIALS_KEY is set: the server mounts the emulator and talks to it over loopback HTTP. */
  emulatorMode: boolean;
  upstream: PlatformAddresses;
  tenancy: Tenancy;
  /**
   * Postgres: `preparedStatements` (default true) sends the statements of fixed shape as named prepared statements;
   * false for a connection pooler that cannot keep them (docs/configuration.md#database).
   */
  database: { kind: 'sqlite'; filename: string } | { kind: 'postgres'; url: string; preparedStatements?: boolean };
  /** SQLite only: FULL survives power loss, NORMAL survives a killed process; see docs/operations.md#durability. */
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** Updates of different tasks delivered at once. */
  deliveryConcurrency: number;
  /** Requests per minute; 0 means no limit. */
  rateLimits: { perAddress: number; perTask: number };
  /** New tasks per hour from one address and for one company; 0 means no limit. */
  newTaskLimits: { perAddressPerHour: number; perCompanyPerHour: number };
  /** How long rejected and never-confirmed tasks are kept before they are purged. */
  unconfirmedTaskRetentionMs: number;
  /** How long delivered outbox rows are kept, and finished tasks' answers (undefined: for ever); docs/operations.md#retention. */
  retention: { outboxMs: number; taskDataMs: number | undefined };
  /**
   * Fastify's trustProxy: the addresses of trusted reverse proxies, or a hop count (the last N entries of
   * X-Forwarded-For, from any connection: spoofable by a client that bypasses the proxy); undefined trusts none.
   */
  trustProxy: number | string[] | undefined;
  /** Empty in emulator mode until the server knows its own address: see `resolvePortalOrigins`. */
  portalOrigins: string[];
  endEvent: { name: string; format: 'string' | 'object' };
  /** Undefined in emulator mode: a random secret is made per start. */
  sessionSecret: string | undefined;
  partnerUrlTemplate: string | undefined;
  /**
   * The keys that seal sensitive values (SENSITIVE_DATA_KEYS, the first sealing), or in emulator mode without it the
   * file where one is made once and kept (docs/configuration.md#sensitive-values).
   */
  sensitiveKeys: { keys: SensitiveKey[] } | { keyFile: string };
  /** Where task events go (PARTNER_WEBHOOK_URL), the emulator's receiver, or nowhere. */
  partnerWebhook: PartnerWebhookConfig;
  /** Where offers are asked for (PARTNER_BACKEND_URL), the emulator's stand-in, or nowhere. */
  partnerBackend: PartnerBackendConfig;
  /** OFFER_TIMEOUT_MS: the whole load of an offer, retries included. */
  offerTimeoutMs: number;
  logLevel: Environment['LOG_LEVEL'];
  /** `auto`: pretty when standard output is a terminal (decided by main.ts, which owns the process), json otherwise. */
  logFormat: 'pretty' | 'json' | 'auto';
  /** Emulator mode only: where the emulator keeps its state across restarts; undefined keeps it in memory. */
  emulatorStateFile: string | undefined;
  /** The preview portal at /preview: on by default in emulator mode only (PREVIEW_ENABLED). */
  previewEnabled: boolean;
  /** Backoff of failed deliveries: the n-th retry waits a random time up to min(maxDelayMs, baseDelayMs * 2^n). */
  deliveryRetry: { baseDelayMs: number; maxDelayMs: number; retryAfterMaxMs: number };
  /** Postgres only: how long the start waits for the database before giving up. */
  databaseStartupTimeoutMs: number;
  /** How long a client may take: the whole request, its headers, and an idle keep-alive connection. */
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number };
  /** After SIGTERM, how long every route but `/readyz` is still served before the listener closes. */
  shutdownGraceMs: number;
  /** Where `GET /metrics` is served: for operators only (docs/operations.md#metrics). */
  metrics: MetricsExposure;
  /** Where uploads' bytes are kept, and what a task may hold of them (docs/configuration.md#uploads). */
  uploads: UploadsConfig;
  /** Accepted but risky settings, logged at start (e.g. a plain-HTTP platform address allowed by its opt-in). */
  warnings: string[];
}

/** @internal */
export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/**
 * Reads `.env` (when present) under the real environment: a variable set in the environment wins.
 * @internal
 */
export function readEnvironment(envFile = '.env'): Record<string, string | undefined> {
  const fromFile = existsSync(envFile) ? parseEnv(readFileSync(envFile, 'utf8')) : {};
  return { ...fromFile, ...process.env };
}

/** @internal */
export function parseConfig(env: Record<string, string | undefined>): ConfigResult {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      return `${name}: expected ${issue.message}, got ${describeValue(name, env[name])}`;
    });
    return { ok: false, problems };
  }
  const e = parsed.data;
  const mode = modeOf(e);
  const { emulatorMode } = mode;
  const production = e.NODE_ENV === 'production';
  const found: ConfigFindings = { problems: [], warnings: [] };
  checkCredentials(e, mode, found);
  checkPlatformUrls(e, found);
  checkSettings(e, mode, found);
  const metrics = metricsExposure(e, emulatorMode, found.warnings);
  const partnerWebhook = partnerWebhookOf(e, mode, found);
  const sensitiveKeys = sensitiveKeysOf(e, emulatorMode, found.problems);
  const partnerBackend = partnerBackendOf(e, mode, found);
  const uploads = uploadsOf(e, found);
  const { problems, warnings } = found;
  if (problems.length > 0) return { ok: false, problems };

  const loopback = `http://127.0.0.1:${e.PORT}${EMULATOR_PREFIX}`;
  const config: Config = {
    port: e.PORT,
    devServerPort: e.DEV_SERVER_PORT === 0 ? undefined : e.DEV_SERVER_PORT,
    host: e.HOST,
    emulatorMode,
    upstream: {
      authUrl: trimSlash(e.WX_AUTH_URL ?? loopback),
      baseUrl: trimSlash(e.WX_BASE_URL ?? loopback),
      taskBaseUrl: trimSlash(e.WX_TASK_BASE_URL ?? loopback),
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
    },
    tenancy: mode.tenantMode
      ? { mode: 'tenants', credentialsKey: mode.credentialsKey! }
      : {
          mode: 'single',
          credential: emulatorMode ? { ...EMULATOR_MODE_CREDENTIAL } : { key: e.WX_API_KEY!, secret: e.WX_API_SECRET! },
          companies: e.WX_COMPANY_UUIDS === undefined ? undefined : new Set(e.WX_COMPANY_UUIDS),
        },
    database: /^postgres(ql)?:\/\//.test(e.DATABASE_URL)
      ? { kind: 'postgres', url: e.DATABASE_URL, preparedStatements: e.POSTGRES_PREPARED_STATEMENTS }
      : { kind: 'sqlite', filename: e.DATABASE_URL.replace(/^(sqlite|file):(\/\/)?/, '') },
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    deliveryConcurrency: e.DELIVERY_CONCURRENCY,
    rateLimits: { perAddress: e.RATE_LIMIT_PER_ADDRESS, perTask: e.RATE_LIMIT_PER_TASK },
    // In emulator mode the preview opens task after task from one address: unbounded unless asked for.
    newTaskLimits: {
      perAddressPerHour:
        emulatorMode && blankToUndefined(env.NEW_TASKS_PER_ADDRESS_PER_HOUR) === undefined ? 0 : e.NEW_TASKS_PER_ADDRESS_PER_HOUR,
      perCompanyPerHour:
        emulatorMode && blankToUndefined(env.NEW_TASKS_PER_COMPANY_PER_HOUR) === undefined ? 0 : e.NEW_TASKS_PER_COMPANY_PER_HOUR,
    },
    unconfirmedTaskRetentionMs: e.UNCONFIRMED_TASK_RETENTION_HOURS * 60 * 60_000,
    retention: {
      outboxMs: e.OUTBOX_RETENTION_DAYS * DAY_MS,
      taskDataMs: e.TASK_DATA_RETENTION_DAYS === undefined ? undefined : e.TASK_DATA_RETENTION_DAYS * DAY_MS,
    },
    trustProxy:
      e.TRUST_PROXY === undefined
        ? undefined
        : /^\d+$/.test(e.TRUST_PROXY)
          ? Number(e.TRUST_PROXY)
          : e.TRUST_PROXY.split(',').map((part) => part.trim()),
    portalOrigins: e.PORTAL_ORIGINS ?? [],
    endEvent: { name: e.END_EVENT, format: e.END_EVENT_FORMAT },
    sessionSecret: e.SESSION_SECRET,
    partnerUrlTemplate: e.PARTNER_URL_TEMPLATE,
    sensitiveKeys,
    partnerWebhook,
    partnerBackend,
    offerTimeoutMs: e.OFFER_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (production ? 'json' : 'auto'),
    emulatorStateFile: emulatorMode ? e.EMULATOR_STATE_FILE : undefined,
    previewEnabled: e.PREVIEW_ENABLED === undefined ? emulatorMode : e.PREVIEW_ENABLED === 'true',
    deliveryRetry: {
      baseDelayMs: e.DELIVERY_RETRY_BASE_MS,
      maxDelayMs: e.DELIVERY_RETRY_MAX_MS,
      retryAfterMaxMs: e.DELIVERY_RETRY_AFTER_MAX_MS,
    },
    databaseStartupTimeoutMs: e.DATABASE_STARTUP_TIMEOUT_MS,
    timeouts: { requestMs: e.REQUEST_TIMEOUT_MS, headersMs: e.HEADERS_TIMEOUT_MS, keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS },
    // In emulator mode no proxy stands in front, and `npm run dev` restarts the server on each change: no grace.
    shutdownGraceMs: emulatorMode && blankToUndefined(env.SHUTDOWN_GRACE_MS) === undefined ? 0 : e.SHUTDOWN_GRACE_MS,
    metrics,
    uploads,
    warnings,
  };
  return { ok: true, config };
}

/**
 * Sensitive values are sealed under a key that lives outside the database (docs/configuration.md#sensitive-values):
 * required outside emulator mode; emulator mode without it keeps one beside its SQLite file (./data otherwise).
 */
function sensitiveKeysOf(e: Environment, emulatorMode: boolean, problems: string[]): Config['sensitiveKeys'] {
  if (e.SENSITIVE_DATA_KEYS === undefined) {
    if (!emulatorMode) {
      problems.push(
        'SENSITIVE_DATA_KEYS: required outside emulator mode (the keys that seal sensitive answers, `<kid>:<base64url of 32 bytes>`), got nothing',
      );
    }
    const sqliteFile = /^postgres(ql)?:\/\//.test(e.DATABASE_URL) ? undefined : e.DATABASE_URL.replace(/^(sqlite|file):(\/\/)?/, '');
    const directory = sqliteFile === undefined || sqliteFile === ':memory:' || sqliteFile === '' ? './data' : dirname(sqliteFile);
    return { keyFile: join(directory, 'sensitive-data.key') };
  }
  const parsed = parseSensitiveKeys(e.SENSITIVE_DATA_KEYS);
  if (!parsed.ok) {
    problems.push(`SENSITIVE_DATA_KEYS: expected ${parsed.problem}, got ${describeValue('SENSITIVE_DATA_KEYS', e.SENSITIVE_DATA_KEYS)}`);
    return { keys: [] };
  }
  return { keys: parsed.keys };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Loads the configuration or prints one line per problem and exits: the start stops on bad configuration. */
export function loadConfigOrExit(env = readEnvironment()): Config {
  const result = parseConfig(env);
  if (result.ok) return result.config;
  process.stderr.write(`Configuration is invalid:\n${result.problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
