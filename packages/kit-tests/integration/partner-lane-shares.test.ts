import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import type { RunningServer } from '@partner-task-kit/server/server';
import { runKitCommand } from '../helpers/run-command';
import { testDatabase, type BlankTestDatabase } from '../helpers/test-databases';
import { eventOf, startWebhookReceiver } from '../helpers/webhook-receiver';
import { startTestServer } from '../helpers/test-server';
import { tenantModeEnv } from '../helpers/server-process';
import { newContext, restartedTask } from '../helpers/task-app';
import { setTimeout as sleep } from 'node:timers/promises';

const companyA = { company: '0d1e2f30-4a5b-4c6d-8e7f-8091a2b3c4d5', key: 'shares-tenant-a', secret: 'shares-tenant-a-secret-5c1e' };
const companyB = { company: 'e1f20314-2536-4748-996a-abbccddeeff0', key: 'shares-tenant-b', secret: 'shares-tenant-b-secret-8b3a' };

/**
 * A company's endpoint: answers 204 after `delayMs()`, or holds every request until `release()` while `holding`.
 * Tells when each event arrived and how many requests it held open at most.
 */
async function startEndpoint(delayMs: () => number = () => 0) {
  const held = new Set<ServerResponse>();
  let holding = false;
  let mostHeld = 0;
  const receiver = await startWebhookReceiver({
    answer(_request, response) {
      if (!holding) return void setTimeout(() => response.writeHead(204).end(), delayMs());
      held.add(response);
      mostHeld = Math.max(mostHeld, held.size);
    },
  });
  return {
    url: receiver.url,
    arrivals: () =>
      receiver.received.map((request) => {
        const event = eventOf(request);
        return { task: event.data.assignedTaskUuid, committedAt: Date.parse(event.timestamp), arrivedAt: request.at };
      }),
    held: () => held.size,
    mostHeld: () => mostHeld,
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const response of held) response.writeHead(204).end();
      held.clear();
    },
    close: () => receiver.close(),
  };
}

describe.each(['sqlite', 'postgres'] as const)("the partner lane's slots in tenant mode, on %s", (engine) => {
  let directory: string;
  let emulator: RunningEmulator;
  const databases: BlankTestDatabase[] = [];
  const servers: RunningServer[] = [];
  const endpoints: { close(): Promise<unknown> }[] = [];

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-shares-'));
    emulator = await startEmulator({ credentials: [companyA, companyB].map(({ key, secret }) => ({ key, secret })) });
  });

  afterEach(async () => {
    // Endpoints first: a delivery still held open ends with its connection, so the relay can stop.
    for (const endpoint of endpoints.splice(0)) await endpoint.close();
    for (const server of servers.splice(0)) await server.close();
    await emulator.close();
    for (const database of databases.splice(0)) await database.cleanup();
    rmSync(directory, { recursive: true, force: true });
  });

  /** A server in tenant mode whose companies A and B each send their events to their own endpoint. */
  async function serverWith(urlOfA: string, urlOfB: string, upstreamTimeoutMs: number): Promise<RunningServer> {
    const database = await testDatabase(engine).create();
    databases.push(database);
    const environment = tenantModeEnv(emulator.url, { DATABASE_URL: database.url, RATE_LIMIT_PER_TASK: '0' });
    const tenants = (args: string[], input?: string) => runKitCommand('tenants', environment, 20_000, args, input);
    for (const [{ company, key, secret }, url] of [
      [companyA, urlOfA],
      [companyB, urlOfB],
    ] as const) {
      expect(await tenants(['add', '--company', company, '--key', key, '--no-check'], `${secret}\n`)).toMatchObject({ code: 0 });
      expect(await tenants(['webhook', '--company', company, '--url', url])).toMatchObject({ code: 0 });
    }
    // The endpoint's answers come under the timeout, so its circuit never opens: it is slow, not down.
    const server = await startTestServer({ ...environment, LOG_LEVEL: 'warn', UPSTREAM_TIMEOUT_MS: String(upstreamTimeoutMs) });
    servers.push(server);
    return server;
  }

  it("keeps slots for B's events while A's endpoint holds every request it gets open", async () => {
    const endpointA = await startEndpoint();
    const endpointB = await startEndpoint();
    endpoints.push(endpointA, endpointB);
    endpointA.hold();
    const server = await serverWith(endpointA.url, endpointB.url, 60_000);

    // More of A's events than the lane has slots, all written before B's.
    const tasksOfA = await Promise.all(
      Array.from({ length: 24 }, () => restartedTask(server.url, newContext({ wxCompanyUuid: companyA.company }))),
    );
    await expect.poll(() => endpointA.held(), { timeout: 10_000 }).toBeGreaterThan(0);
    const taskOfB = await restartedTask(server.url, newContext({ wxCompanyUuid: companyB.company }));
    await expect.poll(() => endpointB.arrivals().map((arrival) => arrival.task), { timeout: 10_000 }).toEqual([taskOfB]);
    // A never held more than half the 16 slots: the rest stayed for other companies.
    expect(endpointA.mostHeld()).toBeGreaterThan(0);
    expect(endpointA.mostHeld()).toBeLessThanOrEqual(8);

    endpointA.release();
    await expect.poll(() => new Set(endpointA.arrivals().map((arrival) => arrival.task)), { timeout: 20_000 }).toEqual(new Set(tasksOfA));
  }, 90_000);

  it("delivers B's events as fast with A's endpoint slow as with it fast", async () => {
    /** B's latencies (from commit to arrival) while A writes 16 events a second to an endpoint taking `delayOfA`. */
    async function latenciesOfB(delayOfA: number): Promise<number[]> {
      const endpointA = await startEndpoint(() => delayOfA);
      const endpointB = await startEndpoint();
      endpoints.push(endpointA, endpointB);
      const server = await serverWith(endpointA.url, endpointB.url, 4_000);
      const tasksOfB: Promise<string>[] = [];
      const writingA: Promise<string>[] = [];
      // 5 s of A at 16 events a second: at 2 s each that asks for 32 deliveries in flight, twice the lane's slots.
      for (let tick = 0; tick < 80; tick += 1) {
        writingA.push(restartedTask(server.url, newContext({ wxCompanyUuid: companyA.company })));
        if (tick % 8 === 4) tasksOfB.push(restartedTask(server.url, newContext({ wxCompanyUuid: companyB.company })));
        await sleep(1000 / 16);
      }
      const expected = await Promise.all(tasksOfB);
      await Promise.all(writingA);
      await expect.poll(() => endpointB.arrivals().length, { timeout: 30_000 }).toBe(expected.length);
      return endpointB.arrivals().map((arrival) => arrival.arrivedAt - arrival.committedAt);
    }

    const withAFast = await latenciesOfB(0);
    const withASlow = await latenciesOfB(2_000);
    expect(withASlow).toHaveLength(10);
    expect(Math.max(...withASlow)).toBeLessThanOrEqual(Math.max(...withAFast) + 1_000);
  }, 120_000);
});
