import type { Environment } from './config-environment.ts';

/**
 * The cross-checks of the configuration, by concern: what no single variable's schema can say (config-environment.ts
 * checks each alone). Each adds a line per problem, naming the variable and what it expects, and a line per warning.
 */
export interface ConfigFindings {
  problems: string[];
  warnings: string[];
}

/**
 * METRICS_PORT gives /metrics a listener of its own; METRICS_TOKEN asks for a bearer token wherever it is served.
 * Without either it is served on the public listener only in emulator mode (local development), else nowhere.
 */
export interface MetricsExposure {
  listener: { port: number; host: string } | undefined;
  token: string | undefined;
  /** On the public listener (PORT): never beside a listener of its own; with a token, or open in emulator mode. */
  public: boolean;
}

/** Which credentials the server acts with: one (WX_API_KEY), one per company (CREDENTIALS_KEY), or the emulator's. */
export interface ConfigMode {
  tenantMode: boolean;
  emulatorMode: boolean;
  credentialsKey: Buffer | undefined;
}

export function modeOf(e: Environment): ConfigMode {
  const tenantMode = e.CREDENTIALS_KEY !== undefined && e.WX_API_KEY === undefined;
  return {
    tenantMode,
    emulatorMode: e.WX_API_KEY === undefined && !tenantMode,
    credentialsKey: e.CREDENTIALS_KEY === undefined ? undefined : Buffer.from(e.CREDENTIALS_KEY, 'base64'),
  };
}

/** The credentials and what each mode requires beside them. */
export function checkCredentials(e: Environment, mode: ConfigMode, { problems, warnings }: ConfigFindings): void {
  const { tenantMode, emulatorMode, credentialsKey } = mode;
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
  if (emulatorMode) {
    if (e.WX_API_SECRET !== undefined) problems.push('WX_API_KEY: expected the key that goes with WX_API_SECRET, got nothing');
    if (e.NODE_ENV === 'production' && !e.ALLOW_EMULATOR_IN_PRODUCTION) {
      problems.push(
        'WX_API_KEY: required when NODE_ENV=production (without it the server would report to its built-in emulator, not the platform), got nothing; set ALLOW_EMULATOR_IN_PRODUCTION=true to run the emulator anyway',
      );
    }
    return;
  }
  if (!tenantMode && e.WX_API_SECRET === undefined) problems.push('WX_API_SECRET: expected the secret of WX_API_KEY, got nothing');
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

/** docs/platform.md#addresses: plain HTTP is tolerable only on this machine (the emulator, a local proxy). */
export function checkPlatformUrls(e: Environment, { problems, warnings }: ConfigFindings): void {
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
}

/** Settings that must agree with each other: timeouts, retries, the database's scheme, the listeners' ports. */
export function checkSettings(e: Environment, mode: ConfigMode, { problems, warnings }: ConfigFindings): void {
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    problems.push(`HEADERS_TIMEOUT_MS: expected at most REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS}), got ${e.HEADERS_TIMEOUT_MS}`);
  }
  const databaseScheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(e.DATABASE_URL)?.[1]?.toLowerCase();
  if (databaseScheme !== undefined && !supportedDatabaseSchemes.has(databaseScheme)) {
    // docs/decisions/004-sqlite-by-default-postgres-for-scale.md: SQLite or Postgres only, said at start rather than
    // opening a SQLite file named after the URL. Only the scheme is echoed: the rest of a URL may hold a password.
    problems.push(
      `DATABASE_URL: expected a SQLite file path (e.g. ./data/partner-task.db) or a postgres:// URL, got a ${databaseScheme}:// URL, which is not supported`,
    );
  }
  if (e.EMULATOR_STATE_FILE !== undefined && !mode.emulatorMode) {
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
}

/**
 * The metrics carry what only operators should read (the backlog, failures, and in tenant mode each tenant's label),
 * so outside emulator mode they are served only where an operator asked: on a listener of their own or behind a token.
 */
export function metricsExposure(e: Environment, emulatorMode: boolean, warnings: string[]): MetricsExposure {
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

const secretNames = new Set([
  'WX_API_KEY',
  'WX_API_SECRET',
  'SESSION_SECRET',
  'DATABASE_URL',
  'CREDENTIALS_KEY',
  'METRICS_TOKEN',
  'PARTNER_WEBHOOK_SECRET',
  'SENSITIVE_DATA_KEYS',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
]);

/** Never echo a secret back, even a malformed one: say only how long it was. */
export function describeValue(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') return 'nothing';
  if (secretNames.has(name)) return `a value of ${value.length} characters (not shown)`;
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/** docs/platform.md#addresses: the platform's addresses; plain HTTP is tolerable only on this machine (the emulator, a local proxy). */
export function isPlainHttpBeyondLoopback(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'http:') return false;
  return !isLoopbackHost(hostname.replace(/^\[(.*)\]$/, '$1'));
}
