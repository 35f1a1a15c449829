import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSessions, runSteps } from './api-load';
import type { BareReceiver } from './bare-receiver-process';
import { benchProgress, round } from './bench-support';
import { processCpuMs, productionLikeEnv, startServerProcess } from './bench-server-process';

const progress = benchProgress('partner-events');

/**
 * The step endpoint's server CPU per request with the partner's events on (PARTNER_WEBHOOK_URL at a bare receiver)
 * beside the same server with them off, same load, same run. Both servers run side by side, compiled as `npm start`
 * runs them, on SQLite NORMAL (the production setup of packages/kit-tests/bench/api.ts's targets), and take turns under the load in the
 * order off, on, on, off, ... so a drift of the shared machine's load falls on both alike.
 *
 * The CPU is counted from the load's start until both outbox lanes are drained: a lane that falls behind during the
 * load delivers the rest after it, and that work is the events' cost too (the figure during the load alone is kept
 * beside it, as packages/kit-tests/bench/api.ts measures it).
 */
export interface EventsCpuOptions {
  emulatorUrl: string;
  receiver: BareReceiver;
  secret: string;
  connections: number;
  /** Seconds of each measured run. */
  duration: number;
  /** Runs per side. */
  runs: number;
  /** Requests per second in all (autocannon's overallRate); undefined: as many as the server answers. */
  rate?: number | undefined;
  tasks: number;
  logLevel: string;
  /**
   * V8 CPU profiles of both servers, written under this directory (eventsOff/, eventsOn/) when they stop. The progress
   * lines then name each run's window on the monotonic clock, in µs as the profiles' sample times are, to cut them.
   */
  cpuProfileDirectory?: string | undefined;
}

type SideName = 'eventsOff' | 'eventsOn';

interface RunFigures {
  requests: number;
  requestsPerSecond: number;
  cpuMs: number;
  cpuMsDuringLoad: number;
  drainSeconds: number;
  eventsReceived: number;
}

export async function measureEventsCpu(options: EventsCpuOptions) {
  const directory = mkdtempSync(join(tmpdir(), 'ptk-bench-events-'));
  const sides: Side[] = [];
  try {
    sides.push(await startSide('eventsOff', directory, {}, options));
    sides.push(
      await startSide(
        'eventsOn',
        directory,
        { PARTNER_WEBHOOK_URL: options.receiver.url, PARTNER_WEBHOOK_SECRET: options.secret },
        options,
      ),
    );
    for (const side of sides) {
      side.idle = await openSessions(side.url, options.tasks);
      // Warm-up (JIT, SQLite page cache, the relays' token and connections): not reported.
      await runSteps(side.url, side.idle, { connections: options.connections, duration: 3 });
      await side.drained();
    }
    const runs: Record<SideName, RunFigures[]> = { eventsOff: [], eventsOn: [] };
    for (let turn = 0; turn < options.runs; turn += 1) {
      for (const side of turn % 2 === 0 ? sides : [...sides].reverse()) runs[side.name].push(await measureRun(side, options));
    }
    const off = cpuSummary(runs.eventsOff);
    const on = cpuSummary(runs.eventsOn);
    return {
      serverCpuMsPerStepRequest: { eventsOff: off.cpuMsPerRequest, eventsOn: on.cpuMsPerRequest },
      cpuIncreasePercent: round((on.cpuMsPerRequest / off.cpuMsPerRequest - 1) * 100, 1),
      serverCpuMsPerStepRequestDuringLoad: { eventsOff: off.cpuMsPerRequestDuringLoad, eventsOn: on.cpuMsPerRequestDuringLoad },
      stepRequestsPerSecond: { eventsOff: off.requestsPerSecond, eventsOn: on.requestsPerSecond },
      eventsPerStepRequest: on.eventsPerRequest,
      drainAfterLoadSeconds: { eventsOff: off.drainSeconds, eventsOn: on.drainSeconds },
      runs: { eventsOff: runs.eventsOff.map(runSummary), eventsOn: runs.eventsOn.map(runSummary) },
    };
  } finally {
    for (const side of sides) {
      side.close();
      await side.stop();
    }
    rmSync(directory, { recursive: true, force: true });
  }
}

interface Side {
  name: SideName;
  url: string;
  pid: number;
  idle: string[];
  receiver: BareReceiver | undefined;
  drained(): Promise<void>;
  close(): void;
  stop(): Promise<void>;
}

async function startSide(name: SideName, directory: string, events: Record<string, string>, options: EventsCpuOptions): Promise<Side> {
  const file = join(directory, `${name}.db`);
  const server = await startServerProcess(
    {
      DATABASE_URL: file,
      SQLITE_SYNCHRONOUS: 'NORMAL',
      ...productionLikeEnv({
        emulatorUrl: options.emulatorUrl,
        metricsToken: randomBytes(32).toString('base64url'),
        logLevel: options.logLevel,
      }),
      ...events,
    },
    { compiled: true, cpuProfileDirectory: options.cpuProfileDirectory && join(options.cpuProfileDirectory, name) },
  );
  // Read from this process, not through the server's /metrics: a poll there would add to the CPU being measured.
  const database = new Database(file, { readonly: true, fileMustExist: true });
  const pending = database.prepare<[], { n: number }>("select count(*) as n from outbox where state = 'pending'");
  return {
    name,
    url: server.url,
    pid: server.child.pid!,
    idle: [],
    receiver: name === 'eventsOn' ? options.receiver : undefined,
    drained: async () => {
      while (pending.get()!.n > 0) await new Promise((resolve) => setTimeout(resolve, 25));
    },
    close: () => database.close(),
    stop: server.stop,
  };
}

async function measureRun(side: Side, options: EventsCpuOptions): Promise<RunFigures> {
  await side.receiver?.reset();
  const windowStartUs = process.hrtime.bigint() / 1000n;
  const before = processCpuMs(side.pid);
  const started = performance.now();
  const rate = options.rate === undefined ? {} : { overallRate: options.rate };
  const load = await runSteps(side.url, side.idle, { connections: options.connections, duration: options.duration, ...rate });
  const atLoadEnd = processCpuMs(side.pid);
  const loadEnded = performance.now();
  await side.drained();
  const cpuMs = processCpuMs(side.pid) - before;
  const requests = load.requestsPerSecond * options.duration;
  if (load.non2xx > 0 || load.errors > 0)
    throw new Error(`${side.name}: ${load.non2xx} non-2xx, ${load.errors} errors under the step load`);
  const figures = {
    requests,
    requestsPerSecond: load.requestsPerSecond,
    cpuMs,
    cpuMsDuringLoad: atLoadEnd - before,
    drainSeconds: (performance.now() - loadEnded) / 1000,
    eventsReceived: (await side.receiver?.counts())?.requests ?? 0,
  };
  const window = options.cpuProfileDirectory
    ? `; profile window ${windowStartUs}-${process.hrtime.bigint() / 1000n} µs, ${requests} requests`
    : '';
  progress(
    `${side.name}: ${load.requestsPerSecond} req/s, ${round(cpuMs / requests, 3)} ms CPU/request, drained ${round(figures.drainSeconds, 1)} s after (${round((performance.now() - started) / 1000, 1)} s)${window}`,
  );
  return figures;
}

/** The runs of one side pooled: total CPU over total requests, so a longer run weighs as much as it measured. */
function cpuSummary(runs: RunFigures[]) {
  const total = (pick: (run: RunFigures) => number) => runs.reduce((sum, run) => sum + pick(run), 0);
  const requests = total((run) => run.requests);
  return {
    cpuMsPerRequest: round(total((run) => run.cpuMs) / requests, 3),
    cpuMsPerRequestDuringLoad: round(total((run) => run.cpuMsDuringLoad) / requests, 3),
    requestsPerSecond: round(total((run) => run.requestsPerSecond) / runs.length, 0),
    eventsPerRequest: round(total((run) => run.eventsReceived) / requests, 2),
    drainSeconds: round(Math.max(...runs.map((run) => run.drainSeconds)), 1),
  };
}

function runSummary(run: RunFigures) {
  return {
    requestsPerSecond: run.requestsPerSecond,
    cpuMsPerRequest: round(run.cpuMs / run.requests, 3),
    drainSeconds: round(run.drainSeconds, 1),
  };
}
