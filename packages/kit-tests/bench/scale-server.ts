import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { STEP_CYCLE } from './api-load';
import { percentile, round, runPool } from './bench-support';
import { productionLikeEnv, startServerProcess } from './bench-server-process';

/*
 * The measurements of packages/kit-tests/bench/scale.ts that go through a process, as an operator meets them: the server (the step
 * endpoint, /readyz, /metrics) and `npm run outbox -- status`.
 */

export interface Latency {
  p50: number;
  p99: number;
  count: number;
}

export interface ScaleServer {
  url: string;
  pid: number;
  metricsToken: string;
  /** Each task's session and its place in the step cycle, kept from one batch of requests to the next. */
  cursors: Array<{ token: string; index: number }>;
  stop(): Promise<void>;
}

/** The one company the benchmark's server serves (WX_COMPANY_UUIDS), whose tasks the load opens. */
const BENCH_COMPANY = '5ca1e000-0000-4000-8000-000000000001';

/**
 * The built server on `databaseUrl`, as in production (packages/kit-tests/bench/bench-server-process.ts), with 100 tasks opened. It
 * serves BENCH_COMPANY alone, so the seeded backlog, of other companies, is held as a removed tenant's would be
 * (docs/operations.md#tenants): the step latency measures the database's size, not a drain of that backlog
 * (packages/kit-tests/bench/recovery.ts measures a drain).
 */
export async function startScaleServer(databaseUrl: string, emulatorUrl: string): Promise<ScaleServer> {
  const metricsToken = randomBytes(32).toString('base64url');
  const env = productionLikeEnv({ emulatorUrl, metricsToken, logLevel: 'info' });
  const server = await startServerProcess({ ...env, DATABASE_URL: databaseUrl, WX_COMPANY_UUIDS: BENCH_COMPANY }, { compiled: true });
  const cursors: ScaleServer['cursors'] = [];
  try {
    await runPool(100, 8, async () => {
      const context = {
        wxWorkerUuid: randomUUID(),
        wxAssignedTaskUuid: randomUUID(),
        wxTaskFlowUuid: randomUUID(),
        wxCompanyUuid: BENCH_COMPANY,
      };
      const response = await fetch(`${server.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(context),
      });
      if (!response.ok) throw new Error(`POST /api/session answered ${response.status}: ${await response.text()}`);
      cursors.push({ token: ((await response.json()) as { token: string }).token, index: 0 });
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: server.url, pid: server.child.pid!, metricsToken, cursors, stop: server.stop };
}

/**
 * `count` requests of the step cycle (packages/kit-tests/bench/api-load.ts: four steps, then a restart) at `rate` per second, open loop:
 * each latency counts from when its request was due. Returns the steps' latencies (the restarts left out), ms.
 */
export async function pacedSteps(server: ScaleServer, rate: number, count: number): Promise<{ samples: number[]; failed: number }> {
  const { cursors } = server;
  const samples: number[] = [];
  let failed = 0;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let sent = 0; sent < count; sent += 1) {
    const due = started + (sent * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    while (cursors.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const cursor = cursors.shift()!;
    const entry = STEP_CYCLE[cursor.index]!;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${cursor.token}` };
    const request = fetch(`${server.url}${entry.path}`, { method: 'POST', headers, body: entry.body })
      .then(async (response) => {
        await response.arrayBuffer();
        if (!response.ok) failed += 1;
        else if (entry.kind === 'step') samples.push(performance.now() - due);
      })
      .catch(() => void (failed += 1))
      .finally(() => {
        cursor.index = (cursor.index + 1) % STEP_CYCLE.length;
        cursors.push(cursor);
      });
    inFlight.push(request);
  }
  await Promise.all(inFlight);
  return { samples, failed };
}

/**
 * One GET every `intervalMs`, each awaited, as a load balancer polls /readyz. Readiness rewrites its heartbeat at most
 * once a second (docs/operations.md#readiness), so at 25 ms about one answer in 40 waits for that write.
 */
export async function pacedGets(url: string, count: number, intervalMs: number, headers: Record<string, string> = {}) {
  const samples: number[] = [];
  let failed = 0;
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    samples.push(performance.now() - started);
    if (!response.ok) failed += 1;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, intervalMs - (performance.now() - started))));
  }
  return { samples, failed };
}

/**
 * `npm run outbox -- status` as npm runs it (tsx, the server's config from the environment), through the entry an app
 * has (`runKit`, here the fixture app's): its wall time, ms.
 */
export async function statusCommandMs(databaseUrl: string): Promise<number> {
  const started = performance.now();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/kit-tests/fixtures/kit-main.ts', 'outbox', 'status'], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`outbox status exited with ${code}`))));
  });
  if (!output.includes('delivered')) throw new Error(`outbox status printed no counts: ${output}`);
  return performance.now() - started;
}

export function latencyOf(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50), 2), p99: round(percentile(sorted, 99), 2), count: sorted.length };
}
