import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMULATOR_CREDENTIAL, OffsetClock, type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { createWorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { platformEnv, spawnServer, TEST_METRICS_TOKEN, type ServerProcess } from '../helpers/server-process';
import { driveTask } from '../helpers/task-load';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

const MB = 1024 * 1024;

/**
 * Answers `status` with a body of `bytes` bytes, made as it is sent (64 KiB at a time, at the pace the reader takes
 * them) so a gigabyte costs this test no memory. Resolves with how many bytes the reader took before it hung up.
 */
function streamAnswer(response: ServerResponse, status: number, bytes: number, fill = 'x'): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes) });
  let sent = 0;
  return new Promise((resolve) => {
    let closed = false;
    response.on('close', () => {
      closed = true;
      resolve(sent);
    });
    const pump = () => {
      while (!closed && sent < bytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += piece.length;
        if (!response.write(piece)) return void response.once('drain', pump);
      }
      if (!closed) response.end();
    };
    pump();
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** Resident and peak resident memory of a process, in bytes (Linux: /proc/<pid>/status). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kilobytes('VmRSS') * 1024, peak: kilobytes('VmHWM') * 1024 };
}

describe('a partner endpoint answering with a gigabyte', () => {
  let emulator: RunningEmulator;
  let directory: string;
  let server: ServerProcess | undefined;

  beforeEach(async () => {
    emulator = await startEmulator();
    directory = mkdtempSync(join(tmpdir(), 'ptk-oversized-'));
  });

  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = undefined;
    await emulator.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('leaves the server up, its memory where it was, and the event delivered once', async () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    let huge = false;
    const answers: Promise<number>[] = [];
    const receiver = await startWebhookReceiver({
      answer(_request, response) {
        if (!huge) return void response.writeHead(204).end();
        answers.push(streamAnswer(response, 200, 1024 * MB));
      },
    });
    try {
      server = await spawnServer(
        platformEnv(emulator.url, {
          DATABASE_URL: join(directory, 'store.db'),
          PARTNER_WEBHOOK_URL: receiver.url,
          PARTNER_WEBHOOK_SECRET: secret,
          UPSTREAM_TIMEOUT_MS: '20000',
        }),
      );
      const { url, child } = server;
      const deliveredEvents = async () => {
        const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } })).text();
        return Number(/^partner_task_updates_delivered_total\{lane="partner"\} (\d+)$/m.exec(text)?.[1] ?? 0);
      };

      // One restart answered as usual first: the process has then run every path a delivery takes.
      await driveTask(() => url, 1, { assignedTaskUuid: randomUUID(), acked: [] });
      await expect.poll(deliveredEvents, { timeout: 15_000 }).toBe(1);
      const before = memoryOf(child.pid!);

      huge = true;
      await driveTask(() => url, 1, { assignedTaskUuid: randomUUID(), acked: [] });
      let highest = before.rss;
      const sampler = setInterval(() => {
        if (child.exitCode === null) highest = Math.max(highest, memoryOf(child.pid!).rss);
      }, 10);
      try {
        // A process that died says why in the failure (before the fix: ERR_STRING_TOO_LONG in http-transport.ts).
        const deliveredOrDeath = async () => (child.exitCode === null ? deliveredEvents() : `exited: ${server!.output().slice(-600)}`);
        await expect.poll(deliveredOrDeath, { timeout: 30_000 }).toBe(2);
      } finally {
        clearInterval(sampler);
      }
      const after = memoryOf(child.pid!);
      const sent = await Promise.all(answers);

      expect(child.exitCode).toBeNull();
      expect(await fetch(`${url}/healthz`).then((response) => response.status)).toBe(200);
      // Delivered once: a second request with the same webhook-id would be the event sent again.
      const webhookIds = receiver.received.map((request) => String(request.headers['webhook-id']));
      expect(webhookIds).toHaveLength(2);
      expect(new Set(webhookIds).size).toBe(2);
      // The receiver could push no more than what sockets buffer before the server hung up.
      expect(sent).toHaveLength(1);
      expect(sent[0]).toBeLessThan(32 * MB);
      expect(Math.max(highest, after.rss) - before.rss).toBeLessThan(50 * MB);
      // A peak between two samples shows in the high-water mark, unless it stayed under the one from the start.
      expect(after.peak).toBeLessThan(Math.max(before.peak, before.rss + 50 * MB));
    } finally {
      await receiver.close();
    }
  }, 90_000);
});

/**
 * The platform's client reads of an answer what it uses: the status of an update, the start of an error's body, a
 * token response or workers listing up to a size no real one reaches. The platform here is a peer that answers
 * like the emulator, except for the size of its bodies.
 */
describe('the platform answering with more than the client needs', () => {
  const TASK = '7a0c5f7e-3b9f-4c61-9a53-1c2d3e4f5a6b';
  const update = () => ({ taskStatus: 'inProgress' as const, sentAt: new Date().toISOString() });
  let platform: Server;
  let platformUrl: string;
  let answer: (path: string, response: ServerResponse) => void;
  let sent: Promise<number>[];

  beforeEach(async () => {
    sent = [];
    platform = createServer((request, response) => {
      request.resume();
      request.on('end', () => answer(request.url ?? '', response));
    });
    platformUrl = await listen(platform);
  });

  afterEach(async () => {
    platform.closeAllConnections();
    await close(platform);
  });

  const client = () =>
    createWorkforceClient({
      upstream: {
        authUrl: platformUrl,
        baseUrl: platformUrl,
        taskBaseUrl: platformUrl,
        credential: { ...EMULATOR_CREDENTIAL },
        timeoutMs: 20_000,
      },
      clock: new OffsetClock(),
    });
  /** A token as the emulator gives one; everything else `other` answers. */
  const platformAnswering = (other: (response: ServerResponse) => Promise<number>) => {
    answer = (path, response) => {
      if (path.includes('/oauth/token')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'token-1', expires_in: 3600 }));
        return;
      }
      sent.push(other(response));
    };
  };

  it('counts an update delivered on a 2xx without reading its body', async () => {
    platformAnswering((response) => streamAnswer(response, 200, 64 * MB));
    expect(await client().updatePartnerTask(TASK, update())).toEqual({ kind: 'delivered', status: 200 });
    expect(await Promise.all(sent)).toEqual([expect.any(Number)]);
    expect((await sent[0])!).toBeLessThan(16 * MB);
  });

  it('keeps the start of a refusal as its detail, reading no further', async () => {
    // Two bytes a character: the cut falls inside none of them, and the detail is whole characters.
    platformAnswering((response) => streamAnswer(response, 422, 64 * MB, 'é'));
    const outcome = await client().updatePartnerTask(TASK, update());
    expect(outcome).toEqual({ kind: 'permanent', reason: 'rejected', status: 422, detail: `${'é'.repeat(500)}…` });
    expect((await sent[0])!).toBeLessThan(16 * MB);
  });

  it('refuses a token response larger than any token needs, naming the limit', async () => {
    answer = (_path, response) => sent.push(streamAnswer(response, 200, 64 * MB));
    const outcome = await client().listWorkers();
    expect(outcome).toMatchObject({ kind: 'auth_failed', reason: 'unrecognized_token_response', status: 200 });
    expect(outcome.kind === 'auth_failed' && outcome.detail).toMatch(/token response is larger than 65536 bytes/);
    expect((await sent[0])!).toBeLessThan(16 * MB);
  });

  it('refuses a workers listing past its limit as too large, and reads one under it', async () => {
    platformAnswering((response) => streamAnswer(response, 200, 64 * MB));
    const tooLarge = await client().listWorkers();
    expect(tooLarge).toMatchObject({ kind: 'permanent', reason: 'answer_too_large', status: 200 });
    expect(tooLarge.kind === 'permanent' && tooLarge.detail).toMatch(/workers listing is larger than 8388608 bytes/);
    expect((await sent[0])!).toBeLessThan(24 * MB);

    const workers = { data: Array.from({ length: 5000 }, () => ({ uuid: randomUUID(), name: 'x'.repeat(100) })) };
    platformAnswering(async (response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(workers));
      return 0;
    });
    expect(await client().listWorkers()).toEqual({ kind: 'ok', status: 200, body: workers });
  });
});
