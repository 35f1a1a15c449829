import { describe, expect, it } from 'vitest';
import type { Config } from '@partner-task-kit/server/config';
import { describeDatabaseWait, describeStartFailure, StartFailure } from '@partner-task-kit/server/start-failure';
import { NewerDatabaseError } from '@partner-task-kit/server/store/schema-migration';

const sqlite: Pick<Config, 'port' | 'host' | 'database' | 'databaseStartupTimeoutMs'> = {
  port: 8787,
  host: '127.0.0.1',
  database: { kind: 'sqlite', filename: './data/partner-task.db' },
  databaseStartupTimeoutMs: 300_000,
};
const postgres = { ...sqlite, database: { kind: 'postgres' as const, url: 'postgres://app:s3cr3t-pw@db.internal:6543/tasks' } };

const withCode = (message: string, code: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, ...extra });

describe('a failed start in one line', () => {
  it('says which PORT is taken and what to do', () => {
    const error = withCode('listen EADDRINUSE: address already in use 127.0.0.1:8787', 'EADDRINUSE', { syscall: 'listen' });
    expect(describeStartFailure(new StartFailure('listen', error), sqlite)).toBe(
      'PORT 8787 is already in use on 127.0.0.1: stop the program that holds it (another server or `npm run dev`?) or set PORT to a free port, e.g. PORT=8797',
    );
  });

  it("names METRICS_PORT when the operators' listener cannot take its port", () => {
    const error = withCode('listen EADDRINUSE: address already in use 127.0.0.1:9464', 'EADDRINUSE', { syscall: 'listen' });
    const metrics = { listener: { port: 9464, host: '127.0.0.1' }, token: undefined, public: false };
    expect(describeStartFailure(new StartFailure('metrics-listen', error), { ...sqlite, metrics })).toBe(
      'METRICS_PORT 9464 is already in use on 127.0.0.1: stop the program that holds it (another server or `npm run dev`?) ' +
        'or set METRICS_PORT to a free port, e.g. METRICS_PORT=9474',
    );
  });

  it('reads the code inside the empty AggregateError node-postgres throws for a refused connection', () => {
    const refused = new AggregateError(
      [withCode('connect ECONNREFUSED ::1:6543', 'ECONNREFUSED'), withCode('connect ECONNREFUSED 127.0.0.1:6543', 'ECONNREFUSED')],
      '',
    );
    const line = describeStartFailure(new StartFailure('database', refused), postgres);
    expect(line).toBe(
      'the Postgres database at db.internal:6543/tasks refused the connection (tried for 300 s, DATABASE_STARTUP_TIMEOUT_MS): nothing listens there; start Postgres or correct the host and port in DATABASE_URL',
    );
  });

  it('names a refused password without showing it, and a database that does not exist', () => {
    const auth = describeStartFailure(
      new StartFailure('database', withCode('password authentication failed for user "app"', '28P01')),
      postgres,
    );
    expect(auth).toMatch(/refused the user or password in DATABASE_URL/);
    expect(auth).not.toContain('s3cr3t-pw');
    const missing = describeStartFailure(new StartFailure('database', withCode('database "tasks" does not exist', '3D000')), postgres);
    expect(missing).toMatch(/^the Postgres database at db.internal:6543\/tasks does not exist: create it/);
  });

  it('says a SQLite file is not a database, and keeps any other error its message', () => {
    const notADatabase = withCode('file is not a database', 'SQLITE_NOTADB');
    expect(describeStartFailure(new StartFailure('database', notADatabase), sqlite)).toMatch(/is not a SQLite database: set DATABASE_URL/);
    expect(describeStartFailure(new Error('CREDENTIALS_KEY does not open the tenants'), sqlite)).toBe(
      'CREDENTIALS_KEY does not open the tenants',
    );
  });

  it('names the migrations of a newer version and says to upgrade the code', () => {
    const newer = new NewerDatabaseError('engine', ['0042_something_new']);
    expect(describeStartFailure(new StartFailure('database', newer), postgres)).toBe(
      "the Postgres database at db.internal:6543/tasks was migrated by a newer version of this server (the engine's code is " +
        'older than the database: it has migration 0042_something_new, which this code does not know): upgrade the code to ' +
        'that version or later (or set DATABASE_URL to another database); nothing was changed',
    );
  });

  it("says when it is the app's code that is older than the database, naming its migrations", () => {
    const newer = new NewerDatabaseError('app', ['0002_loyalty_tiers', '0003_loyalty_expiry']);
    expect(describeStartFailure(new StartFailure('database', newer), postgres)).toContain(
      "(the app's code is older than the database: it has app migrations 0002_loyalty_tiers, 0003_loyalty_expiry, which this " +
        'code does not know)',
    );
  });
});

describe('why a starting server still waits for its database', () => {
  it('names the cause, never the host, the port or the password', () => {
    const refused = new AggregateError([withCode('connect ECONNREFUSED 10.1.2.3:6543', 'ECONNREFUSED')], '');
    expect(describeDatabaseWait(refused)).toBe('it refuses the connection');
    expect(describeDatabaseWait(withCode('the database system is starting up', '57P03'))).toBe('it is starting up');
    expect(describeDatabaseWait(withCode('password authentication failed for user "app"', '28P01'))).toBe(
      'it refuses the user or password',
    );
    expect(describeDatabaseWait(new Error('something at db.internal:6543'))).toBe('it cannot be opened yet');
  });
});
