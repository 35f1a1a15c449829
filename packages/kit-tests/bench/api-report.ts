import type { PgbenchFigures } from './pgbench';

/** BENCHMARKS.md's rows for packages/kit-tests/bench/api.ts: the step endpoint on each store, beside its bare route and its floors. */

interface Row {
  figure: string;
  value: string;
  target: string;
  met?: boolean;
}

type P50P99 = { p50: number; p99: number };

interface ApiResult {
  database?: 'sqlite' | 'postgres';
  sqliteSynchronous?: string;
  server: string;
  stepRequestsPerSecond: number;
  bareRequestsPerSecond: number;
  ratioStepToBare: number;
  pgbench?: PgbenchFigures;
  ratioStepToPgbench?: number;
  ratioToPgbenchCeilingWithBareServer?: number;
  stepFloor?: {
    bareCpuMs: number;
    statementsCpuMsPerRequest: number;
    updatePostCpuMs: number;
    updatesPerRequest: number;
    totalCpuMs: number;
  };
  ratioStepCpuToFloor?: number;
  connections: number;
  stepLatencyMs: P50P99;
  serverCpuMsPerRequest: { step: number; bare: number };
  machineCpuMsPerStepRequest?: { server: number; emulator: number; loadTool: number; postgres?: number };
  ratioCeilingWithFreeServer?: number;
  ratePerSecond: number;
  stepP99AtRateMs: number;
  stepP50AtRateMs: number;
  stepP99AtRateRunsMs?: number[];
  serverCpuMsPerStepAtRatio025?: number;
  stepP99AtHalfRateMs: number;
  stepP50AtHalfRateMs: number;
  stepP99AtAutocannonOverallRateMs: number;
  peakServerRssMb: number;
}

export function apiRows(result: Record<string, unknown>): Row[] {
  const r = result as unknown as ApiResult;
  const store = r.database === 'postgres' ? 'Postgres' : `SQLite ${r.sqliteSynchronous}`;
  const mode = `API, ${store}${r.server === 'tsx' ? ', server under tsx (npm run dev)' : ''}`;
  // The targets are those of the production setup measured: SQLite NORMAL, the compiled server; the rest compare.
  const targeted = r.database !== 'postgres' && r.sqliteSynchronous === 'NORMAL' && r.server !== 'tsx';
  const target = (text: string, met: boolean) => (targeted ? { target: text, met } : { target: '' });
  const latency = r.stepLatencyMs;
  const cpu = r.serverCpuMsPerRequest;
  return [
    {
      figure: `${mode}: step endpoint / bare route throughput`,
      value: `${r.ratioStepToBare} (${r.stepRequestsPerSecond} / ${r.bareRequestsPerSecond} req/s)`,
      // No target: on two cores its ceiling is about 0.13, the platform stand-in and the load tool sharing them.
      target: '',
    },
    ...(r.pgbench === undefined
      ? []
      : [
          {
            figure: `${mode}: step throughput / pgbench -N (prepared, ${r.connections} clients, same run)`,
            value:
              'skipped' in r.pgbench
                ? `not measured: ${r.pgbench.skipped}`
                : `${r.ratioStepToPgbench} (${r.stepRequestsPerSecond} / ${r.pgbench.transactionsPerSecond} per second)`,
            target: '≥ 0.5',
            met: r.ratioStepToPgbench !== undefined && r.ratioStepToPgbench >= 0.5,
          },
        ]),
    ...(r.ratioToPgbenchCeilingWithBareServer === undefined || r.machineCpuMsPerStepRequest?.postgres === undefined
      ? []
      : [
          {
            figure: `${mode}: ceiling of step / pgbench -N with a server whose step costs what its bare route does (CPU per step: bare route / emulator / load tool / Postgres backends)`,
            value: `${r.ratioToPgbenchCeilingWithBareServer} (${cpu.bare} / ${r.machineCpuMsPerStepRequest.emulator} / ${r.machineCpuMsPerStepRequest.loadTool} / ${r.machineCpuMsPerStepRequest.postgres} ms)`,
            target: '',
          },
        ]),
    {
      figure: `${mode}: step latency p50 / p99 at full load, ${r.connections} connections`,
      value: `${latency.p50} / ${latency.p99} ms`,
      target: '',
    },
    { figure: `${mode}: server CPU per request, step / bare`, value: `${cpu.step} / ${cpu.bare} ms`, target: '' },
    ...(r.stepFloor === undefined || r.ratioStepCpuToFloor === undefined
      ? []
      : [
          {
            figure: `${mode}: server CPU per step request / its floor (bare route + the step's statements on better-sqlite3 + ${r.stepFloor.updatesPerRequest} update POSTed by the relay's client)`,
            value: `${r.ratioStepCpuToFloor} (${cpu.step} / ${r.stepFloor.totalCpuMs} ms = ${r.stepFloor.bareCpuMs} + ${r.stepFloor.statementsCpuMsPerRequest} + ${r.stepFloor.updatePostCpuMs} ms)`,
            ...target('≤ 1.5×', r.ratioStepCpuToFloor <= 1.5),
          },
        ]),
    ...(r.serverCpuMsPerStepAtRatio025 !== undefined
      ? [
          {
            figure: `${mode}: server CPU per step request that a ratio of 0.25 allows one thread at this bare rate`,
            value: `${r.serverCpuMsPerStepAtRatio025} ms (measured ${cpu.step})`,
            target: '',
          },
        ]
      : []),
    ...(r.machineCpuMsPerStepRequest && r.ratioCeilingWithFreeServer !== undefined
      ? [
          {
            figure: `${mode}: CPU per step request, server / emulator (the platform) / load tool; ceiling of the ratio with a server costing nothing`,
            value: `${r.machineCpuMsPerStepRequest.server} / ${r.machineCpuMsPerStepRequest.emulator} / ${r.machineCpuMsPerStepRequest.loadTool} ms; ${r.ratioCeilingWithFreeServer}`,
            target: '',
          },
        ]
      : []),
    {
      figure: `${mode}: step p99 at ${r.ratePerSecond} req/s (paced)`,
      value: `${r.stepP99AtRateMs} ms (p50 ${r.stepP50AtRateMs})${r.stepP99AtRateRunsMs ? `; the median of ${r.stepP99AtRateRunsMs.length} runs: ${r.stepP99AtRateRunsMs.join(' / ')} ms` : ''}`,
      ...target('< 25 ms', r.stepP99AtRateMs < 25),
    },
    {
      figure: `${mode}: step p99 at ${r.ratePerSecond / 2} req/s (paced)`,
      value: `${r.stepP99AtHalfRateMs} ms (p50 ${r.stepP50AtHalfRateMs})`,
      ...(r.database === 'postgres' ? { target: '< 50 ms', met: r.stepP99AtHalfRateMs < 50 } : { target: '' }),
    },
    {
      figure: `${mode}: step p99 at ${r.ratePerSecond} req/s (autocannon overallRate, bursts)`,
      value: `${r.stepP99AtAutocannonOverallRateMs} ms`,
      target: '',
    },
    { figure: `${mode}: server RSS under load`, value: `${r.peakServerRssMb} MB`, ...target('< 150 MB', r.peakServerRssMb < 150) },
  ];
}
