import { scaleRows } from './scale-report';

import { retentionRows } from './retention-report';

/** One JSON line printed by a suite: `suite` says which, the rest is the suite's own figures. */
export type SuiteResult = { suite: string } & Record<string, unknown>;

export interface RunContext {
  cores: number;
  cpu: string;
  node: string;
  date: string;
  loadBefore: number[];
  loadAfter: number[];
}

interface Row {
  figure: string;
  value: string;
  target: string;
  met?: boolean;
}

/** BENCHMARKS.md from one `npm run bench`: each figure, its target and whether this run met it. */
export function renderBenchmarks(results: SuiteResult[], run: RunContext): string {
  const rows = results.flatMap(rowsOf);
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run-all.ts); do not edit by hand. Every throughput is measured beside its ceiling in',
    'the same run, so ratios hold on a noisy machine better than absolute figures do.',
    '',
    `- date: ${run.date}`,
    `- machine: ${run.cores} cores, ${run.cpu}, Node ${run.node}`,
    `- load average (1/5/15 min) before: ${load(run.loadBefore)}, after: ${load(run.loadAfter)}`,
    '',
    '| figure | measured | target | met |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.figure} | ${row.value} | ${row.target} | ${row.met === undefined ? '' : row.met ? 'yes' : '**no**'} |`),
    '',
    '## Raw results',
    '',
    '```json',
    ...results.map((result) => JSON.stringify(result)),
    '```',
    '',
  ].join('\n');
}

type P50P99 = { p50: number; p99: number };
type Size = { rawKb: number; gzipKb: number };
interface ApiResult {
  database?: 'sqlite' | 'postgres';
  sqliteSynchronous?: string;
  server: string;
  stepRequestsPerSecond: number;
  bareRequestsPerSecond: number;
  ratioStepToBare: number;
  connections: number;
  stepLatencyMs: P50P99;
  serverCpuMsPerRequest: { step: number; bare: number };
  machineCpuMsPerStepRequest?: { server: number; emulator: number; loadTool: number };
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
interface DeliveryResult {
  engine: string;
  deliveriesPerSecond: number;
  emulatorCeilingPerSecond: number;
  ratioToCeiling: number;
  pacedRatePerSecond: number;
  enqueueToDeliveredMs: P50P99;
  tokenRequests: number;
}
type PartnerEventsResult = { engine?: string; database?: string } & (
  | {
      part: 'lane';
      deliveriesPerSecond: number;
      receiverCeilingPerSecond: number;
      ratioToCeiling: number;
      senderAlonePerSecond: number;
      ratioToSenderAlone: number;
      concurrency: number;
    }
  | {
      part: 'cpu';
      serverCpuMsPerStepRequest: { eventsOff: number; eventsOn: number };
      cpuIncreasePercent: number;
      connections: number;
      ratePerSecond?: number;
    }
);
interface RecoveryResult {
  engine: string;
  outageSeconds: number;
  tasks: number;
  drainAfterOutageSeconds: number;
  firstDeliveryAfterReturnSeconds: number;
  requestsDuringOutage: number;
  probeMaxSeconds: number;
}
interface PageResult {
  loads: number;
  lcpMs: number;
  lcpElement: string;
  cls: number;
  firstStepInteractiveMs: number;
  initialJs: Size;
  initialCss: Size;
}
interface TokenResult {
  updates: number;
  emulatedSeconds: number;
  tokenLifetimeSeconds: number;
  tokenRequests: number;
  idealTokenRequests: number;
  rejectedForExpiredToken: number;
}

function rowsOf(result: SuiteResult): Row[] {
  switch (result.suite) {
    case 'api': {
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
          ...target('≥ 0.25', r.ratioStepToBare >= 0.25),
        },
        {
          figure: `${mode}: step latency p50 / p99 at full load, ${r.connections} connections`,
          value: `${latency.p50} / ${latency.p99} ms`,
          target: '',
        },
        { figure: `${mode}: server CPU per request, step / bare`, value: `${cpu.step} / ${cpu.bare} ms`, target: '' },
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
          target: '',
        },
        {
          figure: `${mode}: step p99 at ${r.ratePerSecond} req/s (autocannon overallRate, bursts)`,
          value: `${r.stepP99AtAutocannonOverallRateMs} ms`,
          target: '',
        },
        { figure: `${mode}: server RSS under load`, value: `${r.peakServerRssMb} MB`, ...target('< 150 MB', r.peakServerRssMb < 150) },
      ];
    }
    case 'delivery': {
      const r = result as unknown as DeliveryResult;
      const latency = r.enqueueToDeliveredMs;
      const perSecond = r.deliveriesPerSecond;
      const ratio = r.ratioToCeiling;
      return [
        {
          figure: `Delivery, ${r.engine}: deliveries/s (emulator ceiling ${r.emulatorCeilingPerSecond}/s)`,
          value: `${perSecond} (ratio ${ratio})`,
          // Against the emulator's warm ceiling (bench/delivery.ts warms it first) on the same two cores.
          target: '≥ 2000 and ≥ 0.35 of the ceiling',
          met: perSecond >= 2000 && ratio >= 0.35,
        },
        {
          figure: `Delivery, ${r.engine}: enqueue-to-delivered p50 / p99 at ${r.pacedRatePerSecond}/s`,
          value: `${latency.p50} / ${latency.p99} ms`,
          target: '< 250 ms',
          met: latency.p99 < 250,
        },
        { figure: `Delivery, ${r.engine}: token requests`, value: String(r.tokenRequests), target: '1', met: r.tokenRequests === 1 },
      ];
    }
    case 'partner-events': {
      const r = result as unknown as PartnerEventsResult;
      if (r.part === 'lane') {
        return [
          {
            figure: `Partner events, ${r.engine}: deliveries/s to a bare receiver (its ceiling ${r.receiverCeilingPerSecond}/s, autocannon, ${r.concurrency} connections)`,
            value: `${r.deliveriesPerSecond} (ratio ${r.ratioToCeiling}; the lane's sender alone ${r.senderAlonePerSecond}/s, ratio ${r.ratioToSenderAlone})`,
            target: '',
          },
        ];
      }
      const cpu = r.serverCpuMsPerStepRequest;
      const load = r.ratePerSecond === undefined ? `full load, ${r.connections} connections` : `${r.ratePerSecond} req/s`;
      return [
        {
          figure: `Partner events: server CPU per step request, events on / off (SQLite NORMAL, ${load}, until both lanes drained)`,
          value: `${cpu.eventsOn} / ${cpu.eventsOff} ms (${r.cpuIncreasePercent >= 0 ? '+' : ''}${r.cpuIncreasePercent} %)`,
          target: '≤ 10 % more',
          met: r.cpuIncreasePercent <= 10,
        },
      ];
    }
    case 'recovery': {
      const r = result as unknown as RecoveryResult;
      const where = `Recovery, ${r.engine}: ${r.tasks} tasks waiting through a ${r.outageSeconds} s outage`;
      return [
        {
          figure: `${where}: drain time after the platform returns (first delivery after)`,
          value: `${r.drainAfterOutageSeconds} s (${r.firstDeliveryAfterReturnSeconds} s)`,
          target: '< 20 s',
          met: r.drainAfterOutageSeconds < 20,
        },
        {
          figure: `${where}: requests sent during the outage (probes at most every ${r.probeMaxSeconds} s)`,
          value: String(r.requestsDuringOutage),
          target: '',
        },
      ];
    }
    case 'page': {
      const r = result as unknown as PageResult;
      const js = r.initialJs;
      const css = r.initialCss;
      const where = `Page (Slow 4G, CPU ×4, median of ${r.loads})`;
      return [
        { figure: `${where}: LCP (${r.lcpElement})`, value: `${r.lcpMs} ms`, target: '≤ 1000 ms', met: r.lcpMs <= 1000 },
        { figure: `${where}: CLS`, value: String(r.cls), target: '≤ 0.02', met: r.cls <= 0.02 },
        { figure: `${where}: first step interactive`, value: `${r.firstStepInteractiveMs} ms`, target: '' },
        {
          figure: 'Page: initial JavaScript, raw / gzip',
          value: `${js.rawKb} / ${js.gzipKb} KB`,
          target: '≤ 120 KB gzip',
          met: js.gzipKb <= 120,
        },
        { figure: 'Page: initial CSS, raw / gzip', value: `${css.rawKb} / ${css.gzipKb} KB`, target: '' },
      ];
    }
    case 'retention':
      return retentionRows(result);
    case 'token': {
      const r = result as unknown as TokenResult;
      return [
        {
          figure: `Token requests over ${r.updates} updates, ${r.emulatedSeconds} s of ${r.tokenLifetimeSeconds} s tokens`,
          value: `${r.tokenRequests} (ideal ${r.idealTokenRequests}; ${r.rejectedForExpiredToken} updates refused for an expired token)`,
          target: 'one per lifetime',
          met: r.tokenRequests <= r.idealTokenRequests,
        },
      ];
    }
    case 'scale':
      return scaleRows(result);
    default:
      return [];
  }
}
