import type { Config } from './config.ts';
import { NewerDatabaseError } from './store/schema-migration.ts';
import { postgresLocation } from './store/store.ts';

/** The step of the start that failed: each has its own causes and its own advice. */
type StartStage = 'database' | 'listen' | 'metrics-listen';

/** A failure of the start, tagged with its stage by server.ts so main.ts can say what to do in one line. */
export class StartFailure extends Error {
  constructor(
    readonly stage: StartStage,
    cause: unknown,
  ) {
    super(messageOf(cause), { cause });
    this.name = 'StartFailure';
  }
}

type FailureContext = Pick<Config, 'port' | 'host' | 'database' | 'databaseStartupTimeoutMs'> & Partial<Pick<Config, 'metrics'>>;

/**
 * One line a person can act on, instead of a stack trace (docs/decisions/009-fail-closed-recover-by-itself.md: one clear log line). Never the
 * DATABASE_URL itself: it may hold a password; Postgres is named by host, port and database only.
 */
export function describeStartFailure(error: unknown, config: FailureContext): string {
  if (error instanceof StartFailure) {
    switch (error.stage) {
      case 'listen':
        return describeListenFailure(error.cause, config, PUBLIC_LISTENER);
      case 'metrics-listen':
        return describeListenFailure(error.cause, config.metrics?.listener ?? config, METRICS_LISTENER);
      case 'database':
        return describeDatabaseFailure(error.cause, config.database, config.databaseStartupTimeoutMs);
    }
  }
  return messageOf(error);
}

/** The variables that place each listener, named in its failure. */
const PUBLIC_LISTENER = { port: 'PORT', host: 'HOST' } as const;
const METRICS_LISTENER = { port: 'METRICS_PORT', host: 'METRICS_HOST' } as const;

function describeListenFailure(
  error: unknown,
  { port, host }: { port: number; host: string },
  variable: { port: string; host: string },
): string {
  switch (codeOf(error)) {
    case 'EADDRINUSE':
      return (
        `${variable.port} ${port} is already in use on ${host}: stop the program that holds it (another server or \`npm run dev\`?) ` +
        `or set ${variable.port} to a free port, e.g. ${variable.port}=${port === 65535 ? port - 10 : port + 10}`
      );
    case 'EACCES':
      return `${variable.port} ${port} on ${host} needs privileges this process does not have: set ${variable.port} to a port above 1023`;
    case 'EADDRNOTAVAIL':
      return (
        `${variable.host} ${host} is not an address of this machine: ` +
        `set ${variable.host} to one of its addresses, 127.0.0.1 for this machine only or 0.0.0.0 for all`
      );
    case 'ENOTFOUND':
      return `${variable.host} ${host} is not a known host name: set ${variable.host} to an address of this machine, e.g. 127.0.0.1`;
    default:
      return `could not listen on ${host}:${port}: ${messageOf(error)}`;
  }
}

/** Why the database could not be opened and what to do; `waitedMs` is how long the start kept trying (0: once). */
export function describeDatabaseFailure(error: unknown, database: Config['database'], waitedMs: number): string {
  const code = codeOf(error);
  if (error instanceof NewerDatabaseError) {
    const where =
      database.kind === 'sqlite' ? `the SQLite file ${database.filename}` : `the Postgres database at ${postgresLocation(database.url)}`;
    return (
      `${where} was migrated by a newer version of this server (${error.message}): ` +
      'upgrade the code to that version or later (or set DATABASE_URL to another database); nothing was changed'
    );
  }
  if (database.kind === 'sqlite') {
    const file = database.filename;
    if (code === 'SQLITE_CANTOPEN')
      return `could not open the SQLite file ${file}: check that its folder exists and can be written, or set DATABASE_URL`;
    if (code?.startsWith('SQLITE_READONLY'))
      return `the SQLite file ${file} is read-only: give this user write access to it and its folder`;
    if (code === 'SQLITE_NOTADB') return `${file} is not a SQLite database: set DATABASE_URL to another file, or move this one away`;
    if (code === 'SQLITE_FULL') return `the disk holding ${file} is full: free some space, then start again`;
    return `could not open the SQLite file ${file}: ${messageOf(error)}`;
  }
  const where = `the Postgres database at ${postgresLocation(database.url)}`;
  const waited = waitedMs > 0 ? ` (tried for ${Math.round(waitedMs / 1000)} s, DATABASE_STARTUP_TIMEOUT_MS)` : '';
  switch (code) {
    case 'ECONNREFUSED':
      return `${where} refused the connection${waited}: nothing listens there; start Postgres or correct the host and port in DATABASE_URL`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${where} could not be found: the host name in DATABASE_URL does not resolve; correct it`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return `${where} did not answer${waited}: check the host in DATABASE_URL, the network and any firewall`;
    case '28P01':
    case '28000':
      return `${where} refused the user or password in DATABASE_URL: correct them (the password is not shown here)`;
    case '3D000':
      return `${where} does not exist: create it (e.g. \`createdb\`) or correct the database name in DATABASE_URL`;
    case '42501':
      return `${where} refused a permission the server needs (to create its tables): grant the user of DATABASE_URL rights on its schema`;
    default:
      return `${where} could not be opened${waited}: ${messageOf(error) || code || 'unknown error'}`;
  }
}

/**
 * Why a starting server is still waiting for its Postgres, for `/readyz` while it waits: the cause alone, never the
 * host or the database's name (the answer is for anyone who asks; the log line names them).
 */
export function describeDatabaseWait(error: unknown): string {
  switch (codeOf(error)) {
    case 'ECONNREFUSED':
      return 'it refuses the connection';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its host name does not resolve';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return 'it does not answer';
    case '57P03':
      return 'it is starting up';
    case '28P01':
    case '28000':
      return 'it refuses the user or password';
    case '3D000':
      return 'the database does not exist';
    default:
      return 'it cannot be opened yet';
  }
}

/**
 * The error's code, or that of the first error inside it: node-postgres reports a refused connection to `localhost`
 * as an AggregateError (one per address tried) whose own message is empty.
 */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code !== '') return code;
  if (error instanceof AggregateError) for (const inner of error.errors) if (codeOf(inner) !== undefined) return codeOf(inner);
  if (error instanceof Error && error.cause !== undefined) return codeOf(error.cause);
  return undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') return error.errors.map(messageOf).join('; ');
  return error instanceof Error ? error.message : String(error);
}
