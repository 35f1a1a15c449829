import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '@partner-task-kit/server/config';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { createLogger } from '@partner-task-kit/server/logger';
import { startServer, type RunningServer } from '@partner-task-kit/server/server';
import { control } from '../helpers/emulator-control';
import { runKitCommand } from '../helpers/run-command';
import { platformEnv } from '../helpers/server-process';
import { driveTask } from '../helpers/task-load';
import { testWorkflows } from '../helpers/test-workflows';

interface Line {
  msg: string;
  lane?: string;
  tenant?: string;
}

/** The partner's backend: answers 503 while `failing` says so, else 204. */
async function startReceiver(failing: () => boolean) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(failing() ? 503 : 204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/hooks`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const paused = {
  platform: 'delivery paused: the platform keeps failing; sending one update at a time as a probe until one gets through',
  partner: "delivery paused: the partner's endpoint keeps failing; sending one event at a time as a probe until one gets through",
};
const resumed = {
  platform: 'delivery resumed: the platform answers again; sending the held updates now',
  partner: "delivery resumed: the partner's endpoint answers again; sending the held events now",
};

let emulator: RunningEmulator;
let directory: string;
let server: RunningServer | undefined;
let lines: string[];
const parsedLines = () => lines.map((line) => JSON.parse(line) as Line);
const withMessage = (message: string) => parsedLines().filter((line) => line.msg === message);

/** Starts the server in-process with `environment`, its log lines (at info) collected in `lines`. */
async function start(environment: Record<string, string>): Promise<RunningServer> {
  const parsed = parseConfig({ ...environment, PORT: '0', LOG_LEVEL: 'info', DELIVERY_RETRY_BASE_MS: '20', DELIVERY_RETRY_MAX_MS: '200' });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const log = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    }),
  );
  return startServer(parsed.config, { workflows: testWorkflows, log, tenantsRefreshMs: 100 });
}

beforeEach(() => {
  lines = [];
  directory = mkdtempSync(join(tmpdir(), 'ptk-relay-logs-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await emulator.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("the relays' log lines", () => {
  it('name the lane and its receiver when each lane pauses and resumes with the single credential', async () => {
    emulator = await startEmulator();
    let receiverFails = true;
    const receiver = await startReceiver(() => receiverFails);
    try {
      await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'status', status: 503, count: 10_000 });
      server = await start(
        platformEnv(emulator.url, {
          DATABASE_URL: join(directory, 'store.db'),
          PARTNER_WEBHOOK_URL: receiver.url,
          PARTNER_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
        }),
      );
      const url = server.url;
      await driveTask(() => url, 1, { assignedTaskUuid: randomUUID(), acked: [] });
      await expect
        .poll(() => [paused.platform, paused.partner].map((message) => withMessage(message).length > 0), { timeout: 20_000 })
        .toEqual([true, true]);

      await control(emulator.url).clearFaults();
      receiverFails = false;
      await expect
        .poll(() => [resumed.platform, resumed.partner].map((message) => withMessage(message).length > 0), { timeout: 20_000 })
        .toEqual([true, true]);

      for (const lane of ['platform', 'partner'] as const) {
        expect(withMessage(paused[lane]).map(({ lane, tenant }) => ({ lane, tenant }))).toEqual([{ lane, tenant: 'default' }]);
        expect(withMessage(resumed[lane]).map(({ lane, tenant }) => ({ lane, tenant }))).toEqual([{ lane, tenant: 'default' }]);
      }
      const retries = withMessage('delivery failed; will retry');
      expect(new Set(retries.map((line) => line.lane))).toEqual(new Set(['platform', 'partner']));
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('name a company in tenant mode only by its metrics label, never its UUID', async () => {
    const company = '9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D';
    const credential = { key: 'log-lines-tenant', secret: 'log-lines-tenant-secret-3e9a' };
    emulator = await startEmulator({ credentials: [credential] });
    const receiver = await startReceiver(() => true);
    try {
      const environment = {
        CREDENTIALS_KEY: Buffer.alloc(32, 41).toString('base64'),
        WX_AUTH_URL: emulator.url,
        WX_BASE_URL: emulator.url,
        WX_TASK_BASE_URL: emulator.url,
        PORTAL_ORIGINS: 'https://portal.example.com',
        SESSION_SECRET: 'log-lines-test-session-secret-0123456789',
        SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        DATABASE_URL: join(directory, 'store.db'),
        METRICS_TOKEN: 'log-lines-test-metrics-token-0123456789abcdef',
      };
      const tenants = (args: string[], input?: string) => runKitCommand('tenants', environment, 20_000, args, input);
      expect(await tenants(['add', '--company', company, '--key', credential.key, '--no-check'], `${credential.secret}\n`)).toMatchObject({
        code: 0,
      });
      expect(await tenants(['webhook', '--company', company, '--url', receiver.url])).toMatchObject({ code: 0 });
      server = await start(environment);
      const url = server.url;
      const context = {
        wxWorkerUuid: randomUUID(),
        wxAssignedTaskUuid: randomUUID(),
        wxTaskFlowUuid: randomUUID(),
        wxCompanyUuid: company,
      };
      const opened = await fetch(`${url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(context),
      });
      const { token } = (await opened.json()) as { token: string };
      for (const action of ['start', 'restart']) {
        const response = await fetch(`${url}/api/task/${action}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
        expect(response.status).toBe(200);
      }
      await expect.poll(() => withMessage(paused.partner).length, { timeout: 20_000 }).toBe(1);

      // The label /metrics gives the company: `company-` and 12 hex digits of the SHA-256 of its UUID in lower case.
      const label = `company-${createHash('sha256').update(company.toLowerCase()).digest('hex').slice(0, 12)}`;
      expect(withMessage(paused.partner)).toEqual([expect.objectContaining({ lane: 'partner', tenant: label })]);
      const scrape = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${environment.METRICS_TOKEN}` } })).text();
      const circuitSeries = scrape
        .split('\n')
        .filter((line) => line.startsWith('partner_task_delivery_circuit_open{') && line.includes('lane="partner"'));
      expect(circuitSeries).toEqual([expect.stringMatching(new RegExp(`tenant="${label}".* 1$`))]);
      const retries = withMessage('delivery failed; will retry').filter((line) => line.lane === 'partner');
      expect(retries.length).toBeGreaterThanOrEqual(5);
      expect(retries.every((line) => line.tenant === label)).toBe(true);
      // No line of a relay carries the company's UUID, in any letter case.
      expect(
        parsedLines().filter((line) => line.lane !== undefined && JSON.stringify(line).toLowerCase().includes(company.toLowerCase())),
      ).toEqual([]);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
