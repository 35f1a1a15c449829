import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { control } from '../helpers/emulator-control';
import { platformEnv, spawnServer, TEST_METRICS_TOKEN, type ServerProcess } from '../helpers/server-process';
import { driveTask, type AckedTask } from '../helpers/task-load';
import { failingWhile, startWebhookReceiver } from '../helpers/webhook-receiver';

/** Every sample of a scrape, as `name{label="value",…}` with its labels sorted, mapped to its value. */
function samplesOf(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => `${key}="${value}"`).sort();
    samples.set(`${match[1]}{${labels.join(',')}}`, Number(match[3]));
  }
  return samples;
}

let emulator: RunningEmulator;
let directory: string;
let server: ServerProcess | undefined;

beforeEach(async () => {
  emulator = await startEmulator();
  directory = mkdtempSync(join(tmpdir(), 'ptk-lane-metrics-'));
});

afterEach(async () => {
  await server?.kill('SIGKILL');
  server = undefined;
  await emulator.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('/metrics with both delivery lanes', () => {
  it('labels the backlog, dead letters, deliveries, failures and circuit of each lane with lane="platform" or lane="partner"', async () => {
    let receiverFails = true;
    const receiver = await startWebhookReceiver({ answer: failingWhile(() => receiverFails) });
    try {
      // Both endpoints down from the start: each lane's circuit opens on its own failures.
      await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'status', status: 503, count: 10_000 });
      server = await spawnServer(
        platformEnv(emulator.url, {
          DATABASE_URL: join(directory, 'metrics.db'),
          PARTNER_WEBHOOK_URL: receiver.url,
          PARTNER_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
          DELIVERY_RETRY_BASE_MS: '20',
          DELIVERY_RETRY_MAX_MS: '200',
        }),
      );
      const url = server.url;
      const scrape = async () => {
        const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
        expect(response.status).toBe(200);
        return samplesOf(await response.text());
      };
      const task: AckedTask = { assignedTaskUuid: randomUUID(), acked: [] };
      // Open (ready), start (inProgress), restart (ready): three updates, and a `task.restarted` event at least.
      await driveTask(() => url, 1, task);
      expect(task.acked).toEqual(['ready', 'inProgress', 'ready']);

      const circuit = (lane: string, cause: string) =>
        `partner_task_delivery_circuit_open{cause="${cause}",lane="${lane}",tenant="default"}`;
      await expect
        .poll(
          async () => {
            const samples = await scrape();
            return [samples.get(circuit('platform', 'server_error')), samples.get(circuit('partner', 'server_error'))];
          },
          { timeout: 20_000, interval: 100 },
        )
        .toEqual([1, 1]);
      const held = await scrape();
      for (const lane of ['platform', 'partner']) {
        expect(held.get(`partner_task_outbox_pending{lane="${lane}"}`), lane).toBeGreaterThanOrEqual(1);
        expect(held.get(`partner_task_outbox_oldest_pending_age_seconds{lane="${lane}"}`), lane).toBeGreaterThan(0);
        expect(held.get(`partner_task_outbox_dead_letters{lane="${lane}"}`), lane).toBe(0);
        expect(held.get(`partner_task_delivery_failures_total{lane="${lane}",reason="server_error"}`), lane).toBeGreaterThanOrEqual(5);
      }
      // No series is left without its lane.
      expect(
        [...held.keys()].filter((key) => /^partner_task_(outbox|updates|delivery|enqueue|dead)_/.test(key) && !key.includes('lane=')),
      ).toEqual([]);

      // Both endpoints are back: each lane drains, and its circuit closes.
      await control(emulator.url).clearFaults();
      receiverFails = false;
      await expect
        .poll(
          async () => {
            const samples = await scrape();
            return ['platform', 'partner'].map((lane) => [
              samples.get(`partner_task_outbox_pending{lane="${lane}"}`),
              samples.get(circuit(lane, 'none')),
              (samples.get(`partner_task_updates_delivered_total{lane="${lane}"}`) ?? 0) > 0,
            ]);
          },
          { timeout: 30_000, interval: 100 },
        )
        .toEqual([
          [0, 0, true],
          [0, 0, true],
        ]);
      const drained = await scrape();
      expect(drained.get('partner_task_updates_delivered_total{lane="platform"}')).toBe(3);
      for (const lane of ['platform', 'partner']) {
        expect(drained.get(`partner_task_outbox_oldest_pending_age_seconds{lane="${lane}"}`), lane).toBe(0);
        expect(drained.get(`partner_task_outbox_dead_letters{lane="${lane}"}`), lane).toBe(0);
        expect(drained.get(`partner_task_enqueue_to_delivered_seconds_count{lane="${lane}"}`), lane).toBe(
          drained.get(`partner_task_updates_delivered_total{lane="${lane}"}`),
        );
      }
    } finally {
      await receiver.close();
    }
  }, 90_000);
});
