import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { spawnBareReceiver } from './bare-receiver-process';
import { machine, round, spawnEmulator, withBenchStore } from './bench-support';
import { measureEventsCpu } from './partner-events-cpu';
import { measurePartnerLane, PARTNER_LANE_CONCURRENCY } from './partner-lane-drain';

/**
 * `npm run bench:partner-events`: what the partner's events cost, against a bare receiver (packages/kit-tests/bench/bare-receiver.ts)
 * in a process of its own. `lane`: events/s through the partner lane beside the receiver's ceiling, one JSON line per
 * engine. `cpu`: the step endpoint's server CPU per request with events on and off. `--parts lane` runs one of them.
 */
const { values } = parseArgs({
  options: {
    parts: { type: 'string', default: 'lane,cpu' },
    engines: { type: 'string', default: 'sqlite' },
    events: { type: 'string', default: '5000' },
    tasks: { type: 'string', default: '500' },
    'ceiling-seconds': { type: 'string', default: '4' },
    duration: { type: 'string', default: '8' },
    runs: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    // Requests per second in all for the `cpu` part; unset: full load, as packages/kit-tests/bench/api.ts measures its CPU per request.
    rate: { type: 'string' },
    'step-tasks': { type: 'string', default: '2000' },
    'log-level': { type: 'string', default: 'info' },
    // V8 CPU profiles of the `cpu` part's two servers, written under this directory when they stop.
    'cpu-prof': { type: 'string' },
  },
});
const parts = values.parts.split(',');
// A fresh Standard Webhooks secret, as `echo whsec_$(openssl rand -base64 32)` makes one (docs/configuration.md).
const secret = `whsec_${randomBytes(32).toString('base64')}`;

const receiver = await spawnBareReceiver();
// The lane's sender alone, CPU per event (the first engine's lane run): with the events per step, the floor of the
// events' cost per step request that no outbox work can go below.
let senderCpuMsPerEvent: number | undefined;
try {
  if (parts.includes('lane')) {
    const options = {
      events: Number(values.events),
      tasks: Number(values.tasks),
      ceilingSeconds: Number(values['ceiling-seconds']),
      secret,
    };
    for (const engine of values.engines.split(',')) {
      const result = await withBenchStore(engine, (store) => measurePartnerLane(store, receiver, options));
      senderCpuMsPerEvent ??= result.senderAloneCpuMsPerEvent;
      console.log(
        JSON.stringify({
          suite: 'partner-events',
          part: 'lane',
          engine,
          ...result,
          events: options.events,
          tasks: options.tasks,
          concurrency: PARTNER_LANE_CONCURRENCY,
          machine: machine(),
        }),
      );
    }
  }
  if (parts.includes('cpu')) {
    const emulator = await spawnEmulator();
    try {
      const options = {
        emulatorUrl: emulator.url,
        receiver,
        secret,
        connections: Number(values.connections),
        duration: Number(values.duration),
        runs: Number(values.runs),
        rate: values.rate === undefined ? undefined : Number(values.rate),
        tasks: Number(values['step-tasks']),
        logLevel: values['log-level'],
        cpuProfileDirectory: values['cpu-prof'],
      };
      const result = await measureEventsCpu(options);
      const floorMs = senderCpuMsPerEvent === undefined ? undefined : senderCpuMsPerEvent * result.eventsPerStepRequest;
      const floor =
        floorMs === undefined
          ? {}
          : {
              eventsFloorMsPerStepRequest: round(floorMs, 3),
              eventsFloorPercent: round((floorMs / result.serverCpuMsPerStepRequest.eventsOff) * 100, 1),
            };
      console.log(
        JSON.stringify({
          suite: 'partner-events',
          part: 'cpu',
          database: 'sqlite',
          sqliteSynchronous: 'NORMAL',
          ...result,
          ...floor,
          connections: options.connections,
          ...(options.rate === undefined ? {} : { ratePerSecond: options.rate }),
          durationSeconds: options.duration,
          runsPerSide: options.runs,
          machine: machine(),
        }),
      );
    } finally {
      await emulator.stop();
    }
  }
} finally {
  await receiver.stop();
}
