import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '@partner-task-kit/server/config';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { createLogger } from '@partner-task-kit/server/logger';
import { startServer, type RunningServer } from '@partner-task-kit/server/server';
import { runKitCommand } from '../helpers/run-command';
import { testPostgresUrl } from '../helpers/test-databases';
import { testWorkflows } from '../helpers/test-workflows';

const companyA = { company: '0d1e2f30-4a5b-4c6d-8e7f-8091a2b3c4d5', key: 'shares-tenant-a', secret: 'shares-tenant-a-secret-5c1e' };
const companyB = { company: 'e1f20314-2536-4748-996a-abbccddeeff0', key: 'shares-tenant-b', secret: 'shares-tenant-b-secret-8b3a' };
const credentialsKey = Buffer.alloc(32, 23).toString('base64');

/**
 * A company's endpoint: answers 204 after `delayMs()`, or holds every request until `release()` while `holding`.
 * Records when each event arrived and how many requests it holds open at most.
 */
async function startEndpoint(delayMs: () => number = () => 0) {
  const arrivals: { task: string; committedAt: number; arrivedAt: number }[] = [];
  const held = new Set<ServerResponse>();
  let holding = false;
  let mostHeld = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const event = JSON.parse(body) as { timestamp: string; data: { assignedTaskUuid: string } };
      arrivals.push({ task: event.data.assignedTaskUuid, committedAt: Date.parse(event.timestamp), arrivedAt: Date.now() });
      if (holding) {
        held.add(response);
        mostHeld = Math.max(mostHeld, held.size);
        return;
      }
      setTimeout(() => response.writeHead(204).end(), delayMs());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    held: () => held.size,
    mostHeld: () => mostHeld,
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const response of held) response.writeHead(204).end();
      held.clear();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Where the server and the CLI keep their data: a SQLite file, or a Postgres schema named in DATABASE_URL. */
async function databaseFor(engine: 'sqlite' | 'postgres', directory: string) {
  if (engine === 'sqlite') return { url: join(directory, `${randomUUID()}.db`), remove: async () => {} };
  const schema = `shares_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testPostgresUrl });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  return {
    url: `${testPostgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    async remove() {
      await admin.query(`drop schema if exists "${schema}" cascade`);
      await admin.end();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(['sqlite', 'postgres'] as const)("the partner lane's slots in tenant mode, on %s", (engine) => {
  let directory: string;
  let emulator: RunningEmulator;
  const databases: { remove(): Promise<void> }[] = [];
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
    for (const database of databases.splice(0)) await database.remove();
    rmSync(directory, { recursive: true, force: true });
  });

  /** A server in tenant mode whose companies A and B each send their events to their own endpoint. */
  async function serverWith(urlOfA: string, urlOfB: string, upstreamTimeoutMs: number): Promise<RunningServer> {
    const database = await databaseFor(engine, directory);
    databases.push(database);
    const environment = {
      CREDENTIALS_KEY: credentialsKey,
      WX_AUTH_URL: emulator.url,
      WX_BASE_URL: emulator.url,
      WX_TASK_BASE_URL: emulator.url,
      PORTAL_ORIGINS: 'https://portal.example.com',
      SESSION_SECRET: 'shares-test-session-secret-0123456789',
      SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      DATABASE_URL: database.url,
      RATE_LIMIT_PER_ADDRESS: '0',
      RATE_LIMIT_PER_TASK: '0',
      NEW_TASKS_PER_ADDRESS_PER_HOUR: '0',
      METRICS_TOKEN: 'shares-test-metrics-token-0123456789abcdef',
    };
    const tenants = (args: string[], input?: string) => runKitCommand('tenants', environment, 20_000, args, input);
    for (const [{ company, key, secret }, url] of [
      [companyA, urlOfA],
      [companyB, urlOfB],
    ] as const) {
      expect(await tenants(['add', '--company', company, '--key', key, '--no-check'], `${secret}\n`)).toMatchObject({ code: 0 });
      expect(await tenants(['webhook', '--company', company, '--url', url])).toMatchObject({ code: 0 });
    }
    // The endpoint's answers come under the timeout, so its circuit never opens: it is slow, not down.
    const parsed = parseConfig({ ...environment, PORT: '0', LOG_LEVEL: 'warn', UPSTREAM_TIMEOUT_MS: String(upstreamTimeoutMs) });
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const log = createLogger('warn', new Writable({ write: (_chunk, _encoding, done) => done() }));
    const server = await startServer(parsed.config, { workflows: testWorkflows, log });
    servers.push(server);
    return server;
  }

  /** A worker of `company` opens a new task, starts and restarts it: one `task.restarted` owed to its endpoint. */
  async function restartedTask(server: RunningServer, company: string): Promise<string> {
    const assignedTaskUuid = randomUUID();
    const opened = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        wxWorkerUuid: randomUUID(),
        wxAssignedTaskUuid: assignedTaskUuid,
        wxTaskFlowUuid: randomUUID(),
        wxCompanyUuid: company,
      }),
    });
    expect(opened.status).toBe(200);
    const { token } = (await opened.json()) as { token: string };
    for (const action of ['start', 'restart']) {
      const response = await fetch(`${server.url}/api/task/${action}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(200);
    }
    return assignedTaskUuid;
  }

  it("keeps slots for B's events while A's endpoint holds every request it gets open", async () => {
    const endpointA = await startEndpoint();
    const endpointB = await startEndpoint();
    endpoints.push(endpointA, endpointB);
    endpointA.hold();
    const server = await serverWith(endpointA.url, endpointB.url, 60_000);

    // More of A's events than the lane has slots, all written before B's.
    const tasksOfA = await Promise.all(Array.from({ length: 24 }, () => restartedTask(server, companyA.company)));
    await expect.poll(() => endpointA.held(), { timeout: 10_000 }).toBeGreaterThan(0);
    const taskOfB = await restartedTask(server, companyB.company);
    await expect.poll(() => endpointB.arrivals.map((arrival) => arrival.task), { timeout: 10_000 }).toEqual([taskOfB]);
    // A never held more than half the 16 slots: the rest stayed for other companies.
    expect(endpointA.mostHeld()).toBeGreaterThan(0);
    expect(endpointA.mostHeld()).toBeLessThanOrEqual(8);

    endpointA.release();
    await expect.poll(() => new Set(endpointA.arrivals.map((arrival) => arrival.task)), { timeout: 20_000 }).toEqual(new Set(tasksOfA));
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
        writingA.push(restartedTask(server, companyA.company));
        if (tick % 8 === 4) tasksOfB.push(restartedTask(server, companyB.company));
        await sleep(1000 / 16);
      }
      const expected = await Promise.all(tasksOfB);
      await Promise.all(writingA);
      await expect.poll(() => endpointB.arrivals.length, { timeout: 30_000 }).toBe(expected.length);
      return endpointB.arrivals.map((arrival) => arrival.arrivedAt - arrival.committedAt);
    }

    const withAFast = await latenciesOfB(0);
    const withASlow = await latenciesOfB(2_000);
    expect(withASlow).toHaveLength(10);
    expect(Math.max(...withASlow)).toBeLessThanOrEqual(Math.max(...withAFast) + 1_000);
  }, 120_000);
});
