import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { control } from '../helpers/emulator-control';
import { runKitCommand } from '../helpers/run-command';
import { platformEnv, tenantModeEnv } from '../helpers/server-process';
import { driveTask } from '../helpers/task-load';
import { failingWhile, startWebhookReceiver } from '../helpers/webhook-receiver';
import { startTestServer, type TestServer } from '../helpers/test-server';

interface Line {
  msg: string;
  lane?: string;
  tenant?: string;
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
let server: TestServer | undefined;
const parsedLines = () => (server?.logLines ?? []).map((line) => JSON.parse(line) as Line);
const withMessage = (message: string) => parsedLines().filter((line) => line.msg === message);

/** Retries within a test's patience, and the lines they log. */
const FAST_RETRIES = { LOG_LEVEL: 'info', DELIVERY_RETRY_BASE_MS: '20', DELIVERY_RETRY_MAX_MS: '200' };

beforeEach(() => {
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
    const receiver = await startWebhookReceiver({ answer: failingWhile(() => receiverFails) });
    try {
      await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'status', status: 503, count: 10_000 });
      const environment = platformEnv(emulator.url, {
        DATABASE_URL: join(directory, 'store.db'),
        PARTNER_WEBHOOK_URL: receiver.url,
        PARTNER_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
      });
      server = await startTestServer({ ...environment, ...FAST_RETRIES }, { tenantsRefreshMs: 100 });
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
    const receiver = await startWebhookReceiver({ answer: failingWhile(() => true) });
    try {
      const environment = tenantModeEnv(emulator.url, { DATABASE_URL: join(directory, 'store.db') });
      const tenants = (args: string[], input?: string) => runKitCommand('tenants', environment, 20_000, args, input);
      expect(await tenants(['add', '--company', company, '--key', credential.key, '--no-check'], `${credential.secret}\n`)).toMatchObject({
        code: 0,
      });
      expect(await tenants(['webhook', '--company', company, '--url', receiver.url])).toMatchObject({ code: 0 });
      server = await startTestServer({ ...environment, ...FAST_RETRIES }, { tenantsRefreshMs: 100 });
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
