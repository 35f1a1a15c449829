import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { runTool } from './run-command';

/**
 * The shared Postgres serves every other test, so it is never stopped: a test that stops, starts or restarts Postgres
 * runs a private cluster of its own, made with initdb in a temporary directory, which it may terminate at will.
 */
export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const havePostgresBinaries = existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));

/** initdb and postgres refuse to run as root: as root, run them as the postgres user. */
function asPostgres(binary: string, args: string[], timeoutMs = 30_000) {
  const command = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', join(PG_BIN, binary)] : [join(PG_BIN, binary)];
  const [executable = '', ...rest] = command;
  return runTool(executable, [...rest, ...args], timeoutMs).then((result) => {
    if (result.code !== 0) throw new Error(`${binary} ${args.join(' ')} exited with ${result.code}:\n${result.stdout}${result.stderr}`);
    return result;
  });
}

/** A Postgres cluster owned by one test file: its own directory, port and unix socket, trust auth on loopback only. */
export class PrivateCluster {
  readonly data: string;
  readonly log: string;

  constructor(
    readonly directory: string,
    readonly port: number,
  ) {
    this.data = join(directory, 'data');
    this.log = join(directory, 'postgres.log');
  }

  url(database: string, applicationName?: string): string {
    const query = applicationName === undefined ? '' : `?application_name=${applicationName}`;
    return `postgres://postgres@127.0.0.1:${this.port}/${database}${query}`;
  }

  async init(): Promise<void> {
    if (process.getuid?.() === 0) {
      const owned = await runTool('chown', ['postgres', this.directory]);
      if (owned.code !== 0) throw new Error(`chown postgres ${this.directory} failed: ${owned.stderr}`);
    }
    await asPostgres('initdb', ['-D', this.data, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-locale', '-E', 'UTF8']);
    // In the configuration file rather than on pg_ctl's command line, so the restart below keeps them.
    appendFileSync(
      join(this.data, 'postgresql.conf'),
      [
        `port = ${this.port}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${this.directory}'`,
        // What this test restarts is the server, not the machine: no fsync keeps initdb and the load fast.
        'fsync = off',
        '',
      ].join('\n'),
    );
  }

  start(): Promise<unknown> {
    return asPostgres('pg_ctl', ['start', '-D', this.data, '-l', this.log, '-w', '-t', '30']);
  }

  /** `fast`: the clean stop of a planned restart (clients are disconnected); `immediate`: the teardown. */
  stop(mode: 'fast' | 'immediate'): Promise<unknown> {
    return asPostgres('pg_ctl', ['stop', '-D', this.data, '-m', mode, '-w', '-t', '30']);
  }

  /** One statement on a connection of its own: a long-lived client would die with every termination and restart. */
  async query<R extends pg.QueryResultRow>(database: string, sql: string, values: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.url(database) });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query<R>(sql, values)).rows;
    } finally {
      await client.end();
    }
  }

  /**
   * The teardown: an immediate stop whatever state the cluster is in. Should pg_ctl fail (a start that never finished),
   * the postmaster this file started is killed by the process id it wrote.
   */
  async destroy(): Promise<void> {
    const pidFile = join(this.data, 'postmaster.pid');
    if (!existsSync(pidFile)) return;
    try {
      await this.stop('immediate');
    } catch {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (Number.isInteger(pid) && pid > 0) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
  }

  logText(): string {
    return existsSync(this.log) ? readFileSync(this.log, 'utf8') : '';
  }
}
