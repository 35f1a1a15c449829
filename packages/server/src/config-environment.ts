import { availableParallelism } from 'node:os';
import { z } from 'zod';

/**
 * What each environment variable may hold, as zod schemas: `config.ts` reads the environment, parses it with these and
 * turns the result into a `Config`, checking what no single variable can say alone (pairs, modes, secrets).
 */

/** docs/platform.md#end-event: the end event's name is not shown, so it is configurable; this is our documented default. */
const DEFAULT_END_EVENT = 'partner-task-complete';

/** An empty or blank variable counts as unset (a `.env` line `NAME=` left from a template). */
export const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalString = z.preprocess(blankToUndefined, z.string().optional());
const httpUrl = z.url({ protocol: /^https?$/, error: 'an http(s) URL, e.g. https://api.example.com' });
const optionalUrl = z.preprocess(blankToUndefined, httpUrl.optional());
const origin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}, 'an origin: scheme, host and optional port, no path, e.g. https://portal.example.com');

function wholeNumber(min: number, max: number) {
  return z.coerce
    .number({ error: `a whole number from ${min} to ${max}` })
    .int(`a whole number from ${min} to ${max}`)
    .min(min, `a whole number from ${min} to ${max}`)
    .max(max, `a whole number from ${min} to ${max}`);
}

function integer(min: number, max: number, fallback: number) {
  return z.preprocess(blankToUndefined, wholeNumber(min, max).default(fallback));
}

/** A whole number whose default is decided elsewhere: config-uploads.ts reads a renamed variable's old name too. */
function optionalInteger(min: number, max: number) {
  return z.preprocess(blankToUndefined, wholeNumber(min, max).optional());
}

/** A port that is unset unless given (0: any free port, as for PORT). */
const optionalPort = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: 'a whole number from 0 to 65535' })
    .int('a whole number from 0 to 65535')
    .min(0, 'a whole number from 0 to 65535')
    .max(65535, 'a whole number from 0 to 65535')
    .optional(),
);

const booleanFlag = z.preprocess(
  blankToUndefined,
  z
    .enum(['true', 'false'], { error: 'one of: true, false' })
    .default('false')
    .transform((value) => value === 'true'),
);

export const environmentSchema = z.object({
  PORT: integer(0, 65535, 8787),
  HOST: z.preprocess(blankToUndefined, z.string().default('127.0.0.1')),
  // docs/development.md#npm-run-dev: the loopback port of the server behind `npm run dev`'s Vite (unset: a free one).
  DEV_SERVER_PORT: optionalPort,
  WX_API_KEY: optionalString,
  WX_API_SECRET: optionalString,
  WX_AUTH_URL: optionalUrl,
  WX_BASE_URL: optionalUrl,
  WX_TASK_BASE_URL: optionalUrl,
  // Tenant mode (docs/decisions/008-a-deputy-for-many-companies.md): each client company's credential lives in the database, its Secret sealed under
  // this key. Validated below, where a bad value can be described without echoing it.
  CREDENTIALS_KEY: optionalString,
  // The keys that seal sensitive values at rest (packages/server/src/sensitive/sensitive-keys.ts), `<kid>:<base64url key>`, comma
  // separated, the first sealing. Validated in config.ts, where a bad value can be described without echoing it.
  SENSITIVE_DATA_KEYS: optionalString,
  WX_COMPANY_UUIDS: z.preprocess(
    (value) =>
      typeof value === 'string' && value.trim() !== ''
        ? value
            .split(',')
            .map((part) => part.trim().toLowerCase())
            .filter((part) => part !== '')
        : undefined,
    z.array(z.uuid({ error: 'a comma-separated list of company UUIDs' })).optional(),
  ),
  DATABASE_URL: z.preprocess(blankToUndefined, z.string().default('./data/partner-task.db')),
  PORTAL_ORIGINS: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? value.split(',').map((part) => part.trim()) : undefined),
    z.array(origin).optional(),
  ),
  END_EVENT: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'an event name of letters, digits and _ . : - (at most 100)')
      .default(DEFAULT_END_EVENT),
  ),
  // docs/platform.md#end-event: the delivery format of the end event is not shown; `string` posts the bare name, `object` posts
  // {type: name, ...context}.
  END_EVENT_FORMAT: z.preprocess(blankToUndefined, z.enum(['string', 'object'], { error: 'one of: string, object' }).default('string')),
  SESSION_SECRET: z.preprocess(blankToUndefined, z.string().min(32, 'at least 32 characters of random text').optional()),
  // Events to the partner's own backend (packages/server/src/delivery/partner-webhook-sender.ts): where, and the `whsec_` secret
  // they are signed with. Validated in config-partner-webhook.ts, where a bad secret can be described without echoing it.
  PARTNER_WEBHOOK_URL: optionalUrl,
  PARTNER_WEBHOOK_SECRET: optionalString,
  // Offers (docs/connecting-your-backend.md#offers): the partner's backend they are asked of, signed with the secret above.
  PARTNER_BACKEND_URL: optionalUrl,
  PARTNER_URL_TEMPLATE: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine(
        (value) => httpUrl.safeParse(value.replaceAll('{assignedTaskUuid}', '0')).success,
        'an http(s) URL, may contain {assignedTaskUuid}',
      )
      .optional(),
  ),
  // pretty: one coloured line per event for a person at a terminal (pino-pretty); json: one JSON object per line for
  // a log collector. Unset: pretty when standard output is a terminal, json otherwise and always with NODE_ENV=production.
  LOG_FORMAT: z.preprocess(blankToUndefined, z.enum(['pretty', 'json'], { error: 'one of: pretty, json' }).optional()),
  // docs/configuration.md#kit-versions: `off` lets the server start and the page build on a mix of the kit's versions
  // (kit-versions.ts reads it before the rest of the configuration); here only so a misspelt value is refused.
  KIT_VERSION_CHECK: z.preprocess(blankToUndefined, z.enum(['on', 'off'], { error: 'one of: on, off' }).optional()),
  // Emulator mode only: a SQLite file that keeps the emulator's assigned tasks across restarts. `npm run dev` sets it
  // (data/emulator-<PORT>.db), so a server restarted by a code change still knows the tasks the preview opened.
  EMULATOR_STATE_FILE: z.preprocess(blankToUndefined, z.string().optional()),
  LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'one of: fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
  ),
  UPSTREAM_TIMEOUT_MS: integer(100, 120_000, 10_000),
  // The whole load of an offer, retries included: the worker waits on it. At most 7 s: the page gives up on any
  // request after 8 (packages/page/src/api/api-client.ts), and its "Try again" should mean the server gave up, not the page.
  OFFER_TIMEOUT_MS: integer(100, 7_000, 5_000),
  DELIVERY_CONCURRENCY: integer(1, 1000, 32),
  // Requests per minute; 0 turns a limit off (a load test, or a proxy that limits already).
  RATE_LIMIT_PER_ADDRESS: integer(0, 1_000_000, 600),
  RATE_LIMIT_PER_TASK: integer(0, 1_000_000, 120),
  // New tasks per hour: each costs a row and a `ready` sent upstream, so invented sessions are bounded (docs/decisions/008-a-deputy-for-many-companies.md).
  NEW_TASKS_PER_ADDRESS_PER_HOUR: integer(0, 1_000_000, 60),
  NEW_TASKS_PER_COMPANY_PER_HOUR: integer(0, 10_000_000, 2_000),
  // How long a rejected or never-confirmed task's rows are kept (for an operator's questions) before they are purged.
  UNCONFIRMED_TASK_RETENTION_HOURS: integer(1, 87_600, 168),
  // docs/operations.md#retention: delivered outbox rows are kept this long; a finished task's answers as long as
  // TASK_DATA_RETENTION_DAYS says, and for ever when it is unset.
  OUTBOX_RETENTION_DAYS: integer(1, 36_500, 30),
  TASK_DATA_RETENTION_DAYS: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'a whole number of days from 1 to 36500' })
      .int('a whole number of days from 1 to 36500')
      .min(1, 'a whole number of days from 1 to 36500')
      .max(36_500, 'a whole number of days from 1 to 36500')
      .optional(),
  ),
  // Fastify's trustProxy: a comma list of proxy addresses/CIDRs, or a hop count; unset: the socket's address is the
  // client. A list believes X-Forwarded-For only on connections from those proxies. A hop count N believes the last N
  // entries of X-Forwarded-For on every connection, whoever opened it: a client that reaches the server directly, not
  // through the proxy, writes its own header, picks its address and escapes the per-address limits. So prefer the
  // list, and with either never expose the server's port to anyone but the proxy (docs/configuration.md#reverse-proxy).
  TRUST_PROXY: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^(\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, 'a hop count (e.g. 1) or a comma list of proxy addresses or CIDRs')
      .optional(),
  ),
  SQLITE_SYNCHRONOUS: z.preprocess(blankToUndefined, z.enum(['FULL', 'NORMAL'], { error: 'one of: FULL, NORMAL' }).default('NORMAL')),
  // The preview portal lets anyone who reaches the server open tasks with any context, so it is on by default
  // only in emulator mode; with a real credential it must be asked for.
  PREVIEW_ENABLED: z.preprocess(blankToUndefined, z.enum(['true', 'false'], { error: 'one of: true, false' }).optional()),
  // The retry policy's backoff (packages/server/src/delivery/retry-policy.ts): shorter values make the preview's outage demo and
  // the browser tests watch retries in seconds instead of minutes.
  DELIVERY_RETRY_BASE_MS: integer(10, 3_600_000, 1000),
  DELIVERY_RETRY_MAX_MS: integer(10, 86_400_000, 10 * 60_000),
  DELIVERY_RETRY_AFTER_MAX_MS: integer(0, 86_400_000, 60 * 60_000),
  // The deployment's kind, as container platforms and hosts set it. Read only to refuse unsafe fallbacks
  // (docs/decisions/009-fail-closed-recover-by-itself.md); every behaviour it gates has its own named opt-in below.
  NODE_ENV: z.preprocess(blankToUndefined, z.string().optional()),
  ALLOW_EMULATOR_IN_PRODUCTION: booleanFlag,
  ALLOW_INSECURE_PLATFORM_URL: booleanFlag,
  // docs/operations.md#metrics: /metrics for operators only. METRICS_PORT serves it on a listener of its own (METRICS_HOST,
  // loopback by default: a sidecar or a Prometheus on this machine), and the public listener answers 404 for it.
  METRICS_PORT: optionalPort,
  METRICS_HOST: z.preprocess(blankToUndefined, z.string().default('127.0.0.1')),
  // A bearer token /metrics asks for, wherever it is served. Long enough that guessing it is hopeless; visible ASCII
  // with no spaces, so it fits an Authorization header as it is.
  METRICS_TOKEN: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[\x21-\x7e]{32,}$/, 'at least 32 characters of random text, no spaces (e.g. `openssl rand -base64 32`)')
      .optional(),
  ),
  // A stalled client (slow headers, a body that never ends) is cut off within seconds instead of holding a connection.
  REQUEST_TIMEOUT_MS: integer(1_000, 600_000, 15_000),
  // How long a starting server waits for Postgres (a database that starts after it); 0 tries once.
  DATABASE_STARTUP_TIMEOUT_MS: integer(0, 3_600_000, 300_000),
  POSTGRES_PREPARED_STATEMENTS: z.preprocess(
    blankToUndefined,
    z
      .enum(['true', 'false'], { error: 'one of: true, false' })
      .default('true')
      .transform((value) => value === 'true'),
  ),
  HEADERS_TIMEOUT_MS: integer(500, 600_000, 5_000),
  KEEP_ALIVE_TIMEOUT_MS: integer(500, 600_000, 5_000),
  // After SIGTERM: readiness 503 at once, every other route served this long, so the proxy stops sending work before
  // the listener closes (docs/operations.md#start-and-stop). Unset: 5000, or 0 in emulator mode (config.ts).
  SHUTDOWN_GRACE_MS: integer(0, 600_000, 5_000),
  // Where uploads' bytes go (docs/configuration.md#uploads), checked in config-uploads.ts: `file:<dir>` or
  // `s3://<bucket>/<prefix>`, with the S3 variables below. The AWS credential variables are read here too, so those
  // of a `.env` file count, and are never echoed.
  UPLOAD_STORE: optionalString,
  S3_ENDPOINT: optionalUrl,
  S3_REGION: optionalString,
  AWS_REGION: optionalString,
  S3_FORCE_PATH_STYLE: z.preprocess(blankToUndefined, z.enum(['true', 'false'], { error: 'one of: true, false' }).optional()),
  AWS_ACCESS_KEY_ID: optionalString,
  AWS_SECRET_ACCESS_KEY: optionalString,
  AWS_SESSION_TOKEN: optionalString,
  // What a task may hold (docs/configuration.md#uploads): files, and their declared sizes in all. Each file's own
  // maximum is its field's (`fileField({maxBytes})`). The `_PER_ATTEMPT` names are their names in earlier releases,
  // still read (config-uploads.ts), so a `.env` written for one starts unchanged.
  UPLOAD_MAX_FILES_PER_TASK: optionalInteger(1, 10_000),
  UPLOAD_MAX_BYTES_PER_TASK: optionalInteger(1, 10 * 1024 ** 3),
  UPLOAD_MAX_FILES_PER_ATTEMPT: optionalInteger(1, 10_000),
  UPLOAD_MAX_BYTES_PER_ATTEMPT: optionalInteger(1, 10 * 1024 ** 3),
  // Received files decoded at once, each in a process of its own, the memory their decodings may hold together, and
  // each decoding's deadline (docs/configuration.md#uploads): a process per core, four at most, as each idle one holds
  // some 20 MB; and room for one 12 MP photo turned upright (some 46 MB, upload-cleaning.ts) with small ones beside it.
  UPLOAD_CLEANING_PROCESSES: integer(1, 64, Math.min(4, availableParallelism())),
  UPLOAD_CLEANING_MEMORY_MB: integer(16, 65_536, 56),
  UPLOAD_CLEANING_TIMEOUT_MS: integer(100, 600_000, 30_000),
});

export type Environment = z.infer<typeof environmentSchema>;
