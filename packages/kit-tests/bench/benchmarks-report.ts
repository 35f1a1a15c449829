import { apiRows } from './api-report';
import { pageRows } from './page-report';
import { scaleRows } from './scale-report';

import { retentionRows } from './retention-report';
import { uploadsRows } from './uploads-report';

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
    'Written by `npm run bench` (packages/kit-tests/bench/run-all.ts); do not edit by hand. Every throughput is measured beside its ceiling in',
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
      eventsPerStepRequest: number;
      eventsFloorMsPerStepRequest?: number;
      eventsFloorPercent?: number;
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
    case 'api':
      return apiRows(result);
    case 'delivery': {
      const r = result as unknown as DeliveryResult;
      const latency = r.enqueueToDeliveredMs;
      const perSecond = r.deliveriesPerSecond;
      const ratio = r.ratioToCeiling;
      return [
        {
          figure: `Delivery, ${r.engine}: deliveries/s (emulator ceiling ${r.emulatorCeilingPerSecond}/s)`,
          value: `${perSecond} (ratio ${ratio})`,
          // Against the emulator's warm ceiling (packages/kit-tests/bench/delivery.ts warms it first) on the same two cores.
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
        ...(r.eventsFloorPercent === undefined
          ? []
          : [
              {
                figure: `Partner events: their floor per step request (${r.eventsPerStepRequest} events × the lane's sender alone, no outbox: signing and one HTTP request each)`,
                value: `${r.eventsFloorMsPerStepRequest} ms (+${r.eventsFloorPercent} % of events off)`,
                target: '',
              },
            ]),
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
    case 'page':
      return pageRows(result);
    case 'retention':
      return retentionRows(result);
    case 'token': {
      const r = result as unknown as TokenResult;
      // A token is renewed five minutes before it expires, or a tenth of its lifetime before when that is shorter
      // (docs/platform.md#token), so that no update leaves with one about to lapse: one request per lifetime
      // less that margin is one per lifetime it can be used.
      const lifetimeMs = r.tokenLifetimeSeconds * 1000;
      const renewalMarginMs = (lifetime: number) => Math.min(5 * 60_000, lifetime / 10);
      const perUsableLifetime = Math.ceil((r.emulatedSeconds * 1000) / (lifetimeMs - renewalMarginMs(lifetimeMs)));
      return [
        {
          figure: `Token requests over ${r.updates} updates, ${r.emulatedSeconds} s of ${r.tokenLifetimeSeconds} s tokens`,
          value:
            `${r.tokenRequests} (one per usable lifetime, renewed ${renewalMarginMs(lifetimeMs) / 1000} s early: ${perUsableLifetime}; ` +
            `one per full lifetime: ${r.idealTokenRequests}; ${r.rejectedForExpiredToken} updates refused for an expired token)`,
          target: 'one per lifetime',
          met: r.tokenRequests <= perUsableLifetime && r.rejectedForExpiredToken === 0,
        },
      ];
    }
    case 'scale':
      return scaleRows(result);
    case 'uploads':
      return uploadsRows(result);
    default:
      return [];
  }
}
