import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { EMULATOR_CREDENTIAL } from '@partner-task-kit/dev';
import pg from 'pg';
import { benchPostgresUrl, round } from './bench-support';

/**
 * The server's resident set from /proc (Linux), sampled every 100 ms: the peak under load, not after it. Also its CPU
 * time (utime + stime), so a figure per request can be given that does not depend on what else the machine runs.
 */
export function sampleServer(pid: number) {
  let peakKb = 0;
  const read = () => {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    peakKb = Math.max(peakKb, Number(match?.[1] ?? 0));
  };
  const cpuMs = () => processCpuMs(pid);
  const timer = setInterval(read, 100);
  return { reset: () => void (peakKb = 0), peakMb: () => round(peakKb / 1024, 0), cpuMs, stop: () => clearInterval(timer) };
}

/** A process's CPU time so far (user + system, all its threads), ms. */
export function processCpuMs(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name; clock ticks of 10 ms.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time so far of each Postgres backend serving `database` (its client connections), ms by process id: the
 * primary's own cost of a load, read from /proc as for the server (Postgres on this machine, as the benchmarks run it).
 */
export async function postgresBackendsCpuMs(database: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: benchPostgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend'",
      [database],
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        cpu.set(pid, processCpuMs(pid));
      } catch {
        // A backend that ended meanwhile: its time is not counted.
      }
    }
    return cpu;
  } finally {
    await client.end();
  }
}

/** The CPU the backends used between two readings; one started in between counts from its start. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * The environment of a server run as in production (a real credential, the emulator in another process as the
 * platform, its relay delivering every update), with the rate limits off so the load is never refused; the database
 * is the caller's to add.
 */
export function productionLikeEnv(options: { emulatorUrl: string; metricsToken: string; logLevel: string }): Record<string, string> {
  const { emulatorUrl } = options;
  return {
    PORT: '0',
    LOG_LEVEL: options.logLevel,
    RATE_LIMIT_PER_ADDRESS: '0',
    RATE_LIMIT_PER_TASK: '0',
    NEW_TASKS_PER_ADDRESS_PER_HOUR: '0',
    NEW_TASKS_PER_COMPANY_PER_HOUR: '0',
    WX_API_KEY: EMULATOR_CREDENTIAL.key,
    WX_API_SECRET: EMULATOR_CREDENTIAL.secret,
    WX_AUTH_URL: emulatorUrl,
    WX_BASE_URL: emulatorUrl,
    WX_TASK_BASE_URL: emulatorUrl,
    PORTAL_ORIGINS: 'http://portal.test',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    // Outside emulator mode /metrics answers only this bearer token (docs/operations.md#metrics).
    METRICS_TOKEN: options.metricsToken,
  };
}

/**
 * `compiled`: the server bundled to one JS file by esbuild (packages left external) and run by plain Node with the
 * flags of `npm run serve`, as `npm start` runs it; otherwise through tsx, as `npm run dev` does (tsx alone adds
 * about 50 MB of RSS). `entry`: another script than packages/kit-tests/bench/bench-server.ts, that posts its `{url}` the same way.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { compiled?: boolean; cpuProfileDirectory?: string | undefined; entry?: string } = {},
): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  // BENCH_CPU_PROF=<dir> (or the caller's directory, for one server of several): a V8 CPU profile of the server,
  // written when it exits (open it in Chrome's DevTools).
  const profileDirectory = options.cpuProfileDirectory ?? process.env.BENCH_CPU_PROF;
  const profile = profileDirectory ? ['--cpu-prof', '--cpu-prof-dir', profileDirectory] : [];
  // BENCH_HEAP_SNAPSHOTS=<dir>: `kill -USR2 <server pid>` writes a heap snapshot of the server there, under load.
  if (process.env.BENCH_HEAP_SNAPSHOTS)
    profile.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${process.env.BENCH_HEAP_SNAPSHOTS}`);
  const source = options.entry ?? 'packages/kit-tests/bench/bench-server.ts';
  const entry = options.compiled ? bundleServer(source) : source;
  const child = fork(entry, {
    execArgv: [...(options.compiled ? serveNodeFlags() : ['--import', 'tsx']), ...profile],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the benchmark server exited with ${code}`)));
  });
  const stop = () =>
    new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return { url, child, stop };
}

/** The Node flags of package.json's `serve` script (`node <flags> build/server/main.mjs`), so both run alike. */
function serveNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  return (scripts.serve ?? '').split(/\s+/).filter((word) => word.startsWith('--'));
}

/** Inside node_modules so that the bundle's bare imports (fastify, kysely...) resolve as from the project. */
function bundleServer(source: string): string {
  const outfile = `node_modules/.cache/ptk-bench/${basename(source, '.ts')}.mjs`;
  const args = [
    source,
    '--bundle',
    '--platform=node',
    '--format=esm',
    '--packages=external',
    `--outfile=${outfile}`,
    '--log-level=warning',
  ];
  execFileSync('node_modules/.bin/esbuild', args, { stdio: 'inherit' });
  return outfile;
}
