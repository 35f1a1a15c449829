import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { blankToUndefined, environmentSchema, type Environment } from './config-environment';
import { EMULATOR_CREDENTIAL } from './emulator/emulator-credential';

/**
 * The one place that reads the environment (docs/architecture.md#configuration-in-one-module). Every variable is validated at start; every bad one is
 * reported on its own line, then the start stops.
 */

export const EMULATOR_PREFIX = '/emulator';

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

export interface Config {
  port: number;
  host: string;
  /** True when neither WX_API_KEY nor CREDENTIALS_KEY is set: the server mounts the emulator and talks to it over loopback HTTP. */
  emulatorMode: boolean;
  upstream: PlatformAddresses;
  tenancy: Tenancy;
  database: { kind: 'sqlite'; filename: string } | { kind: 'postgres'; url: string };
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
  /** Where `GET /metrics` is served: for operators only (docs/operations.md#metrics). */
  metrics: MetricsExposure;
  /** Accepted but risky settings, logged at start (e.g. a plain-HTTP platform address allowed by its opt-in). */
  warnings: string[];
}

/**
 * METRICS_PORT gives /metrics a listener of its own; METRICS_TOKEN asks for a bearer token wherever it is served.
 * Without either it is served on the public listener only in emulator mode (local development), else nowhere.
 */
interface MetricsExposure {
  listener: { port: number; host: string } | undefined;
  token: string | undefined;
  /** On the public listener (PORT): never beside a listener of its own; with a token, or open in emulator mode. */
  public: boolean;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Reads `.env` (when present) under the real environment: a variable set in the environment wins. */
export function readEnvironment(envFile = '.env'): Record<string, string | undefined> {
  const fromFile = existsSync(envFile) ? parseEnv(readFileSync(envFile, 'utf8')) : {};
  return { ...fromFile, ...process.env };
}

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
  const problems: string[] = [];
  const tenantMode = e.CREDENTIALS_KEY !== undefined && e.WX_API_KEY === undefined;
  const emulatorMode = e.WX_API_KEY === undefined && !tenantMode;
  const credentialsKey = e.CREDENTIALS_KEY === undefined ? undefined : Buffer.from(e.CREDENTIALS_KEY, 'base64');
  if (e.CREDENTIALS_KEY !== undefined && e.WX_API_KEY !== undefined) {
    problems.push(
      "CREDENTIALS_KEY: expected it or WX_API_KEY, not both (tenant mode keeps each company's credential in the database; WX_API_KEY is one credential for all), got both",
    );
  }
  if (credentialsKey !== undefined && (credentialsKey.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(e.CREDENTIALS_KEY!.trim()))) {
    problems.push(
      `CREDENTIALS_KEY: expected the base64 of 32 random bytes (e.g. \`openssl rand -base64 32\`), got ${describeValue('CREDENTIALS_KEY', e.CREDENTIALS_KEY)}`,
    );
  }
  // In emulator mode it restricts the emulator's credential, so the preview can rehearse a company not set up.
  if (e.WX_COMPANY_UUIDS !== undefined && tenantMode) {
    problems.push(
      'WX_COMPANY_UUIDS: expected only with one credential (it restricts that credential to these companies; in tenant mode the tenants are the companies served), got a list',
    );
  }

  const production = e.NODE_ENV === 'production';
  const warnings: string[] = [];
  if (emulatorMode) {
    if (e.WX_API_SECRET !== undefined) problems.push('WX_API_KEY: expected the key that goes with WX_API_SECRET, got nothing');
    if (production && !e.ALLOW_EMULATOR_IN_PRODUCTION) {
      problems.push(
        'WX_API_KEY: required when NODE_ENV=production (without it the server would report to its built-in emulator, not the platform), got nothing; set ALLOW_EMULATOR_IN_PRODUCTION=true to run the emulator anyway',
      );
    }
  } else {
    if (!tenantMode && e.WX_API_SECRET === undefined)
      problems.push('WX_API_SECRET: expected the secret of WX_API_KEY (spec 2.1), got nothing');
    if (tenantMode && e.WX_API_SECRET !== undefined)
      problems.push("WX_API_SECRET: expected nothing in tenant mode (each tenant's Secret is in the database), got a value");
    const because = tenantMode ? 'CREDENTIALS_KEY' : 'WX_API_KEY';
    for (const name of ['WX_AUTH_URL', 'WX_BASE_URL', 'WX_TASK_BASE_URL', 'PORTAL_ORIGINS', 'SESSION_SECRET'] as const) {
      if (e[name] === undefined) problems.push(`${name}: required when ${because} is set (${requiredWhy[name]}), got nothing`);
    }
    if (!tenantMode && e.WX_COMPANY_UUIDS === undefined) {
      warnings.push(
        'WX_COMPANY_UUIDS is unset: the credential of WX_API_KEY acts for any company that opens a task; list the companies it serves',
      );
    }
  }
  for (const name of ['WX_AUTH_URL', 'WX_BASE_URL', 'WX_TASK_BASE_URL'] as const) {
    const url = e[name];
    if (url === undefined || !isPlainHttpBeyondLoopback(url)) continue;
    if (e.ALLOW_INSECURE_PLATFORM_URL) {
      warnings.push(
        `${name} is plain HTTP to ${new URL(url).host}: the API key, its secret and bearer tokens cross the network unencrypted`,
      );
    } else {
      problems.push(
        `${name}: expected an https URL (plain http would send the credential in clear text), got ${JSON.stringify(url)}; set ALLOW_INSECURE_PLATFORM_URL=true if the platform offers nothing else`,
      );
    }
  }
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    problems.push(`HEADERS_TIMEOUT_MS: expected at most REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS}), got ${e.HEADERS_TIMEOUT_MS}`);
  }
  const databaseScheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(e.DATABASE_URL)?.[1]?.toLowerCase();
  if (databaseScheme !== undefined && !supportedDatabaseSchemes.has(databaseScheme)) {
    // docs/decisions/004-sqlite-by-default-postgres-for-scale.md: SQLite or Postgres only. Said at start, rather than opening a SQLite file named after the URL.
    // Only the scheme is echoed: the rest of a URL may hold a password.
    problems.push(
      `DATABASE_URL: expected a SQLite file path (e.g. ./data/partner-task.db) or a postgres:// URL, got a ${databaseScheme}:// URL, which is not supported`,
    );
  }
  if (e.EMULATOR_STATE_FILE !== undefined && !emulatorMode) {
    warnings.push('EMULATOR_STATE_FILE is ignored: the emulator runs only in emulator mode (no WX_API_KEY, no CREDENTIALS_KEY)');
  }
  if (e.DELIVERY_RETRY_MAX_MS < e.DELIVERY_RETRY_BASE_MS) {
    problems.push(
      `DELIVERY_RETRY_MAX_MS: expected at least DELIVERY_RETRY_BASE_MS (${e.DELIVERY_RETRY_BASE_MS}), got ${e.DELIVERY_RETRY_MAX_MS}`,
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    problems.push(`METRICS_PORT: expected a port other than PORT (the public listener holds it), got ${e.METRICS_PORT}`);
  }
  const metrics = metricsExposure(e, emulatorMode, warnings);
  if (problems.length > 0) return { ok: false, problems };

  const loopback = `http://127.0.0.1:${e.PORT}${EMULATOR_PREFIX}`;
  const config: Config = {
    port: e.PORT,
    host: e.HOST,
    emulatorMode,
    upstream: {
      authUrl: trimSlash(e.WX_AUTH_URL ?? loopback),
      baseUrl: trimSlash(e.WX_BASE_URL ?? loopback),
      taskBaseUrl: trimSlash(e.WX_TASK_BASE_URL ?? loopback),
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
    },
    tenancy: tenantMode
      ? { mode: 'tenants', credentialsKey: credentialsKey! }
      : {
          mode: 'single',
          credential: emulatorMode ? { ...EMULATOR_CREDENTIAL } : { key: e.WX_API_KEY!, secret: e.WX_API_SECRET! },
          companies: e.WX_COMPANY_UUIDS === undefined ? undefined : new Set(e.WX_COMPANY_UUIDS),
        },
    database: /^postgres(ql)?:\/\//.test(e.DATABASE_URL)
      ? { kind: 'postgres', url: e.DATABASE_URL }
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
    metrics,
    warnings,
  };
  return { ok: true, config };
}

/**
 * The metrics carry what only operators should read (the backlog, failures, and in tenant mode each tenant's label),
 * so outside emulator mode they are served only where an operator asked: on a listener of their own or behind a token.
 */
function metricsExposure(e: Environment, emulatorMode: boolean, warnings: string[]): MetricsExposure {
  const listener = e.METRICS_PORT === undefined ? undefined : { port: e.METRICS_PORT, host: e.METRICS_HOST };
  const token = e.METRICS_TOKEN;
  if (listener === undefined && token === undefined && !emulatorMode) {
    warnings.push(
      'METRICS_PORT and METRICS_TOKEN are unset: GET /metrics is not served; ' +
        'set METRICS_PORT for a loopback listener of its own, or METRICS_TOKEN to serve it to a bearer token',
    );
  }
  if (listener !== undefined && token === undefined && !isLoopbackHost(listener.host)) {
    warnings.push(
      `METRICS_HOST is ${listener.host} and METRICS_TOKEN is unset: ` +
        `whoever reaches port ${listener.port} of this machine reads the metrics`,
    );
  }
  return { listener, token, public: listener === undefined && (token !== undefined || emulatorMode) };
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** What DATABASE_URL may start with; `sqlite:` and `file:` name a SQLite file, as a bare path does. */
const supportedDatabaseSchemes = new Set(['postgres', 'postgresql', 'sqlite', 'file']);

const requiredWhy = {
  WX_AUTH_URL: 'the token endpoint address, spec 4.1',
  WX_BASE_URL: 'the workers endpoint address, spec 4.2',
  WX_TASK_BASE_URL: 'the partner-task endpoint address, spec 4.3',
  PORTAL_ORIGINS: 'the worker portal origins that may frame the page, comma separated',
  SESSION_SECRET: 'at least 32 random characters to sign session tokens',
} as const;

const secretNames = new Set(['WX_API_KEY', 'WX_API_SECRET', 'SESSION_SECRET', 'DATABASE_URL', 'CREDENTIALS_KEY', 'METRICS_TOKEN']);

/** Never echo a secret back, even a malformed one: say only how long it was. */
function describeValue(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') return 'nothing';
  if (secretNames.has(name)) return `a value of ${value.length} characters (not shown)`;
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/** docs/platform.md#addresses: the platform's addresses; plain HTTP is tolerable only on this machine (the emulator, a local proxy). */
function isPlainHttpBeyondLoopback(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'http:') return false;
  return !isLoopbackHost(hostname.replace(/^\[(.*)\]$/, '$1'));
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
