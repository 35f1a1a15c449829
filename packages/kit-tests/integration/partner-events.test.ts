import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { freePort, platformEnv, spawnServer, type ServerProcess } from '../helpers/server-process';
import { driveTask, type AckedTask } from '../helpers/task-load';
import { eventOf, failingWhile, startWebhookReceiver, verifies, type WebhookReceiver } from '../helpers/webhook-receiver';

let emulator: RunningEmulator;
let directory: string;
const servers: ServerProcess[] = [];
const secret = `whsec_${randomBytes(32).toString('base64')}`;

beforeEach(async () => {
  emulator = await startEmulator();
  directory = mkdtempSync(join(tmpdir(), 'ptk-partner-events-'));
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill('SIGKILL')));
  await emulator.close();
  rmSync(directory, { recursive: true, force: true });
});

function envFor(url: string, extra: Record<string, string> = {}) {
  return platformEnv(emulator.url, {
    DATABASE_URL: join(directory, `${randomUUID()}.db`),
    PARTNER_WEBHOOK_URL: url,
    PARTNER_WEBHOOK_SECRET: secret,
    DELIVERY_RETRY_BASE_MS: '50',
    DELIVERY_RETRY_MAX_MS: '400',
    UPSTREAM_TIMEOUT_MS: '2000',
    ...extra,
  });
}

/** The events the backend accepted, with what the test looks at: their id, signature, type, task and attempt. */
function deliveredEvents(receiver: WebhookReceiver) {
  return receiver.accepted().map((request) => {
    const event = eventOf(request);
    const id = String(request.headers['webhook-id']);
    return {
      id,
      verified: verifies(secret, request),
      body: request.body,
      type: event.type,
      task: event.data.assignedTaskUuid,
      attempt: event.data.attempt,
    };
  });
}

/** Restarts acknowledged, per task: each is one `task.restarted` owed to the partner, attempts 2, 3, … in order. */
const restartsOf = (task: AckedTask) => task.acked.filter((status, index) => status === 'ready' && index > 0).length;

describe('events to the partner backend', () => {
  it('delivers every acknowledged event, signed and in order per task, through a 503 storm and a SIGKILL', async () => {
    let failUntil = Date.now() + 1_500;
    const receiver = await startWebhookReceiver({ answer: failingWhile(() => Date.now() < failUntil) });
    try {
      const env = envFor(receiver.url, { PORT: String(await freePort()) });
      const first = await spawnServer(env);
      servers.push(first);
      const tasks: AckedTask[] = Array.from({ length: 12 }, () => ({ assignedTaskUuid: randomUUID(), acked: [] }));
      const driving = Promise.all(tasks.map((task) => driveTask(() => first.url, 6, task)));
      await new Promise((resolve) => setTimeout(resolve, 700));
      await first.kill('SIGKILL');
      await driving;
      failUntil = Date.now() + 1_000;
      servers.push(await spawnServer(env));
      await expect
        .poll(
          () =>
            tasks.every(
              (task) =>
                new Set(
                  deliveredEvents(receiver)
                    .filter((r) => r.task === task.assignedTaskUuid)
                    .map((r) => r.id),
                ).size >= restartsOf(task),
            ),
          {
            timeout: 45_000,
            interval: 100,
          },
        )
        .toBe(true);
      const delivered = deliveredEvents(receiver);
      expect(delivered.every((event) => event.verified)).toBe(true);
      const byId = new Map<string, string>();
      for (const event of delivered) {
        // A repeat (after the kill) carries the same webhook-id and the same body.
        if (byId.has(event.id)) expect(event.body).toBe(byId.get(event.id));
        byId.set(event.id, event.body);
      }
      for (const task of tasks) {
        const firsts = [...new Map(delivered.filter((r) => r.task === task.assignedTaskUuid).map((r) => [r.id, r])).values()];
        const attempts = firsts.map((event) => event.attempt);
        expect(attempts.slice(0, restartsOf(task))).toEqual(Array.from({ length: restartsOf(task) }, (_, index) => index + 2));
        expect(firsts.every((event) => event.type === 'task.restarted')).toBe(true);
      }
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it('keeps platform updates as fast with the partner endpoint down as with it up', async () => {
    const p99OfRun = async (url: string) => {
      const server = await spawnServer(envFor(url));
      servers.push(server);
      const tasks: AckedTask[] = Array.from({ length: 40 }, () => ({ assignedTaskUuid: randomUUID(), acked: [] }));
      await Promise.all(tasks.map((task) => driveTask(() => server.url, 3, task)));
      const latencies = () =>
        tasks.flatMap((task) =>
          (emulator.state.assignments.get(task.assignedTaskUuid)?.trail ?? []).flatMap((entry) =>
            entry.kind === 'partner' && entry.outcome === 'applied' ? [Date.parse(entry.at) - Date.parse(entry.record.sentAt)] : [],
          ),
        );
      const owed = tasks.reduce((sum, task) => sum + task.acked.length, 0);
      await expect.poll(() => latencies().length, { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(owed);
      await server.kill('SIGKILL');
      const sorted = latencies().sort((a, b) => a - b);
      return { p99: sorted[Math.floor(sorted.length * 0.99)]!, samples: sorted.length };
    };
    const receiver = await startWebhookReceiver();
    const up = await p99OfRun(receiver.url);
    await receiver.close();
    const down = await p99OfRun(`http://127.0.0.1:${await freePort()}/hooks`);
    expect(up.samples).toBeGreaterThanOrEqual(280);
    expect(down.samples).toBeGreaterThanOrEqual(280);
    // A lane held up by the other waits out its retries, seconds apart (retry-policy.ts); on a busy 2-core machine the
    // p99 of two runs of 40 tasks differed by up to 220 ms of scheduling noise (a clean-clone CI run: 266 up, 485
    // down). Twice the first run's p99, and never under 500 ms, tells the two apart.
    expect(down.p99).toBeLessThanOrEqual(Math.max(2 * up.p99, 500));
  }, 90_000);
});
