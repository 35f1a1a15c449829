import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EMULATOR_CREDENTIAL, OffsetClock, startEmulator } from '@partner-task-kit/dev';
import { createOutboxRelay } from '@partner-task-kit/server/delivery/outbox-relay';
import { openStore } from '@partner-task-kit/server/store/store';
import { createWorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { machine, openBenchTasks, round } from './bench-support';

/**
 * `node --import tsx packages/kit-tests/bench/token.ts`: N updates through the real outbox, relay and client to an emulator whose tokens
 * live 60 s. The relay, the client and the emulator share one clock in this process, moved forward as the run goes,
 * so the whole run spans many token lifetimes in seconds of real time. The ideal is one token per lifetime started.
 */
const { values } = parseArgs({
  options: {
    updates: { type: 'string', default: '10000' },
    tasks: { type: 'string', default: '500' },
    'lifetime-seconds': { type: 'string', default: '60' },
    // Emulated time added every 10 ms of real time: 1000 makes a 5 s run span about 500 s, eight lifetimes or more.
    'advance-ms': { type: 'string', default: '1000' },
  },
});
const updates = Number(values.updates);
const taskCount = Number(values.tasks);
const lifetimeSeconds = Number(values['lifetime-seconds']);
const silent = { info: () => {}, warn: () => {}, error: (o: object, m: string) => console.error(m, o) };

const clock = new OffsetClock();
const emulator = await startEmulator({ clock, tokenLifetimeSeconds: lifetimeSeconds, requestLogLimit: updates * 2 });
const directory = mkdtempSync(join(tmpdir(), 'ptk-bench-token-'));
const store = await openStore({ kind: 'sqlite', filename: join(directory, 'token.db') });
const upstream = {
  authUrl: emulator.url,
  baseUrl: emulator.url,
  taskBaseUrl: emulator.url,
  credential: { ...EMULATOR_CREDENTIAL },
  timeoutMs: 10_000,
};
const client = createWorkforceClient({ upstream, clock });
// A lease far longer than the emulated run, so moving the clock never frees a row still in flight.
const relay = createOutboxRelay({ store, client, clock, log: silent, concurrency: 32, leaseMs: 24 * 3_600_000, pollMs: 200 });

try {
  const { services, tasks } = await openBenchTasks(store, taskCount, { clock });
  const startedAt = clock.now();
  const ticker = setInterval(() => clock.advance(Number(values['advance-ms'])), 10);
  relay.start();
  // Updates are written while the relay delivers, a few hundred at a time, as a busy server would.
  for (let index = 0; index < updates; index += 1) {
    await services.nextUpdate(tasks[index % taskCount]!);
    relay.wake();
    if (index % 200 === 199) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await waitUntilAccepted(updates);
  clearInterval(ticker);
  const elapsedMs = clock.now() - startedAt;
  const requests = emulator.state.requests;
  const ideal = Math.ceil(elapsedMs / (lifetimeSeconds * 1000));
  const tokenRequests = requests.list('token').length;
  console.log(
    JSON.stringify({
      suite: 'token',
      updates,
      tokenLifetimeSeconds: lifetimeSeconds,
      emulatedSeconds: round(elapsedMs / 1000, 0),
      tokenRequests,
      clientTokenRequests: client.tokenCache.requestCount,
      idealTokenRequests: ideal,
      ratioToIdeal: round(tokenRequests / ideal, 2),
      // An update refused for an expired token costs a renewal and a second send: there should be none.
      rejectedForExpiredToken: requests.list('partnerTask').filter((entry) => entry.status === 401).length,
      machine: machine(),
    }),
  );
} finally {
  await relay.stop();
  client.close();
  await store.close();
  await emulator.close();
  rmSync(directory, { recursive: true, force: true });
}

async function waitUntilAccepted(count: number): Promise<void> {
  for (;;) {
    const accepted = emulator.state.requests.list('partnerTask').filter((entry) => entry.status !== null && entry.status < 300).length;
    if (accepted >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
