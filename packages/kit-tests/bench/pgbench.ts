import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { createBenchDatabase } from './bench-support';

const run = promisify(execFile);

/**
 * The engine's own floor for the Postgres step path: `pgbench -N` (its simple-update script: an UPDATE, a SELECT and
 * an INSERT in one transaction, the shape of a step's writes) with prepared statements and the step load's number of
 * clients, on a scratch database of the benchmarks' Postgres, in the same run as the step load.
 * Undefined, with the reason, where no pgbench is installed (it comes with Debian's postgresql-client).
 */
export async function measurePgbench(options: { clients: number; seconds: number }): Promise<PgbenchFigures> {
  const pgbench = findPgbench();
  if (pgbench === undefined) return { skipped: 'no pgbench found (PGBENCH, PATH or /usr/lib/postgresql/*/bin)' };
  const database = await createBenchDatabase();
  try {
    await run(pgbench, ['--initialize', '--scale=10', '--quiet', database.url]);
    const threads = Math.min(options.clients, 2);
    const { stdout } = await run(pgbench, [
      '--skip-some-updates',
      '--protocol=prepared',
      `--client=${options.clients}`,
      `--jobs=${threads}`,
      `--time=${options.seconds}`,
      database.url,
    ]);
    const tps = /tps = ([\d.]+)/.exec(stdout);
    const latency = /latency average = ([\d.]+) ms/.exec(stdout);
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return {
      transactionsPerSecond: Math.round(Number(tps[1])),
      latencyAverageMs: latency ? Number(latency[1]) : undefined,
      clients: options.clients,
    };
  } finally {
    await database.cleanup();
  }
}

export type PgbenchFigures = { transactionsPerSecond: number; latencyAverageMs: number | undefined; clients: number } | { skipped: string };

function findPgbench(): string | undefined {
  if (process.env.PGBENCH) return process.env.PGBENCH;
  for (const directory of (process.env.PATH ?? '').split(':')) {
    if (directory && existsSync(`${directory}/pgbench`)) return `${directory}/pgbench`;
  }
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse() : [];
  return versions.map((version) => `/usr/lib/postgresql/${version}/bin/pgbench`).find((path) => existsSync(path));
}
