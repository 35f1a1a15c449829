import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Clock } from '@partner-task-kit/server/clock';
import { parseConfig } from '@partner-task-kit/server/config';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { createLogger } from '@partner-task-kit/server/logger';
import { startServer, type RunningServer } from '@partner-task-kit/server/server';
import { runKitCommand } from '../helpers/run-command';
import { testPostgresUrl } from '../helpers/test-databases';
import { testWorkflows } from '../helpers/test-workflows';

const companyA = { company: '5b7c0d2e-1f3a-4b5c-8d6e-7f8091a2b3c4', key: 'webhook-tenant-a', secret: 'webhook-tenant-a-secret-9f1e' };
const companyB = { company: 'c4d5e6f7-0a1b-4c2d-9e3f-405162738495', key: 'webhook-tenant-b', secret: 'webhook-tenant-b-secret-2a7d' };
const credentialsKey = Buffer.alloc(32, 11).toString('base64');
const DAY_MS = 24 * 60 * 60_000;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The test clock when it arrived: a receiver verifies the timestamp against its own time. */
  at: number;
  task: string;
}

/** The partner's backend: records every event; answers 204. */
async function startReceiver(clock: Clock) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const task = (JSON.parse(body) as { data: { assignedTaskUuid: string } }).data.assignedTaskUuid;
      received.push({ path: request.url ?? '', headers: request.headers, body, at: clock.now(), task });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Whether a receiver holding `secret` accepts the event, at the time it arrived (standardwebhooks reads Date). */
function verifies(secret: string, event: Received): boolean {
  vi.useFakeTimers({ toFake: ['Date'], now: event.at });
  try {
    new Webhook(secret).verify(event.body, event.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

/** Where the server and the CLI keep their data: a SQLite file, or a Postgres schema named in DATABASE_URL. */
async function databaseFor(engine: 'sqlite' | 'postgres', directory: string) {
  if (engine === 'sqlite') return { url: join(directory, 'store.db'), remove: async () => {} };
  const schema = `webhooks_${randomBytes(6).toString('hex')}`;
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

describe.each(['sqlite', 'postgres'] as const)('webhooks per company in tenant mode, on %s', (engine) => {
  let directory: string;
  let emulator: RunningEmulator;
  let database: { url: string; remove(): Promise<void> };
  let server: RunningServer | undefined;
  let offsetMs = 0;
  const clock: Clock = { now: () => Date.now() + offsetMs };

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-webhooks-'));
    emulator = await startEmulator({ credentials: [companyA, companyB].map(({ key, secret }) => ({ key, secret })) });
    database = await databaseFor(engine, directory);
    offsetMs = 0;
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
    await emulator.close();
    await database.remove();
    rmSync(directory, { recursive: true, force: true });
  });

  const environment = () => ({
    CREDENTIALS_KEY: credentialsKey,
    WX_AUTH_URL: emulator.url,
    WX_BASE_URL: emulator.url,
    WX_TASK_BASE_URL: emulator.url,
    PORTAL_ORIGINS: 'https://portal.example.com',
    SESSION_SECRET: 'webhook-test-session-secret-0123456789',
    SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    DATABASE_URL: database.url,
    RATE_LIMIT_PER_ADDRESS: '0',
    RATE_LIMIT_PER_TASK: '0',
    METRICS_TOKEN: 'webhook-test-metrics-token-0123456789abcdef',
  });
  const tenants = (args: string[], input?: string) => runKitCommand('tenants', environment(), 20_000, args, input);

  async function start(): Promise<RunningServer> {
    const parsed = parseConfig({ ...environment(), PORT: '0', LOG_LEVEL: 'info', DELIVERY_RETRY_BASE_MS: '50' });
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const log = createLogger('info', new Writable({ write: (_chunk, _encoding, done) => done() }));
    return startServer(parsed.config, { workflows: testWorkflows, clock, log, tenantsRefreshMs: 100 });
  }

  /** A worker opens a new task of `company`, starts it and restarts it: one `task.restarted` owed to the partner. */
  async function restartedTask(company: string): Promise<string> {
    const assignedTaskUuid = randomUUID();
    const context = {
      wxWorkerUuid: randomUUID(),
      wxAssignedTaskUuid: assignedTaskUuid,
      wxTaskFlowUuid: randomUUID(),
      wxCompanyUuid: company,
    };
    const opened = await fetch(`${server!.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(context),
    });
    expect(opened.status).toBe(200);
    const { token } = (await opened.json()) as { token: string };
    for (const action of ['start', 'restart']) {
      const response = await fetch(`${server!.url}/api/task/${action}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(200);
    }
    return assignedTaskUuid;
  }

  const partnerRowsOf = async (company: string) =>
    (await server!.store.db.selectFrom('outbox').select('id').where('lane', '=', 'partner').where('company_uuid', '=', company).execute())
      .length;

  /** Drives tasks of A until one's event arrives as `accepted` says: a CLI change reaches the server at its next refresh. */
  async function eventOnceApplied(receiver: Awaited<ReturnType<typeof startReceiver>>, accepted: (event: Received) => boolean) {
    let found: Received | undefined;
    await expect
      .poll(
        async () => {
          const task = await restartedTask(companyA.company);
          await expect.poll(() => receiver.received.some((event) => event.task === task), { timeout: 10_000 }).toBe(true);
          found = receiver.received.find((event) => event.task === task);
          return accepted(found!);
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(true);
    return found!;
  }

  it('sends events only for the company with a webhook, signed with its secret, through a URL change, a rotation and its end', async () => {
    const receiver = await startReceiver(clock);
    try {
      for (const { company, key, secret } of [companyA, companyB])
        expect(await tenants(['add', '--company', company, '--key', key, '--no-check'], `${secret}\n`)).toMatchObject({ code: 0 });
      const created = await tenants(['webhook', '--company', companyA.company, '--url', `${receiver.url}/one`]);
      expect(created.code).toBe(0);
      const first = created.stdout.trim();
      server = await start();

      // Only A has a webhook: A's task change is told; B's is not even written.
      const taskOfB = await restartedTask(companyB.company);
      const taskOfA = await restartedTask(companyA.company);
      await expect.poll(() => receiver.received.some((event) => event.task === taskOfA), { timeout: 10_000 }).toBe(true);
      const event = receiver.received.find((candidate) => candidate.task === taskOfA)!;
      expect([event.path, verifies(first, event), String(event.headers['webhook-signature']).split(' ')]).toEqual([
        '/one',
        true,
        [expect.stringMatching(/^v1,/)],
      ]);
      expect(verifies(`whsec_${randomBytes(32).toString('base64')}`, event)).toBe(false);
      expect(await partnerRowsOf(companyB.company)).toBe(0);
      expect(receiver.received.some((candidate) => candidate.task === taskOfB)).toBe(false);

      // A new URL: the events go there, signed with the same secret.
      expect(await tenants(['webhook', '--company', companyA.company, '--url', `${receiver.url}/two`])).toMatchObject({ code: 0 });
      const moved = await eventOnceApplied(receiver, (candidate) => candidate.path === '/two');
      expect(verifies(first, moved)).toBe(true);

      // A rotation: for 24 hours a receiver holding either secret verifies each event.
      const rotated = await tenants(['webhook', '--company', companyA.company, '--rotate-secret']);
      expect(rotated.code).toBe(0);
      const second = rotated.stdout.trim();
      expect(second).not.toBe(first);
      const during = await eventOnceApplied(receiver, (candidate) => verifies(second, candidate));
      expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect([verifies(first, during), verifies(second, during)]).toEqual([true, true]);
      offsetMs = DAY_MS - 60 * 60_000;
      const late = await restartedTask(companyA.company);
      await expect.poll(() => receiver.received.some((candidate) => candidate.task === late), { timeout: 10_000 }).toBe(true);
      const lateEvent = receiver.received.find((candidate) => candidate.task === late)!;
      expect([verifies(first, lateEvent), verifies(second, lateEvent)]).toEqual([true, true]);

      // Past 24 hours, on the server's clock: only the new secret signs, without a restart.
      offsetMs = DAY_MS + 60_000;
      const after = await restartedTask(companyA.company);
      await expect.poll(() => receiver.received.some((candidate) => candidate.task === after), { timeout: 10_000 }).toBe(true);
      const afterEvent = receiver.received.find((candidate) => candidate.task === after)!;
      expect(String(afterEvent.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect([verifies(first, afterEvent), verifies(second, afterEvent)]).toEqual([false, true]);

      // Removed: the next task changes of A are no longer written.
      expect(await tenants(['webhook', '--company', companyA.company, '--remove'])).toMatchObject({ code: 0 });
      await expect
        .poll(
          async () => {
            const before = await partnerRowsOf(companyA.company);
            await restartedTask(companyA.company);
            return (await partnerRowsOf(companyA.company)) - before;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(0);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
