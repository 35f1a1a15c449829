import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@partner-task-kit/workflow/contract/api-errors';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { exitOf, platformEnv, type ServerProcess, spawnServer } from '../helpers/server-process';
import { openSession, requestSession } from '../helpers/task-app';

let directory: string;
let emulator: RunningEmulator;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-stop-'));
  emulator = await startEmulator();
});

afterEach(async () => {
  await Promise.allSettled(servers.splice(0).map((server) => server.kill('SIGKILL')));
});

afterAll(async () => {
  await emulator.close();
  rmSync(directory, { recursive: true, force: true });
});

/** A production-like server (a credential, so no emulator mode) with the given grace. */
async function serverWithGrace(graceMs: number): Promise<ServerProcess> {
  const server = await spawnServer(
    platformEnv(emulator.url, {
      DATABASE_URL: join(directory, `${randomUUID()}.db`),
      SHUTDOWN_GRACE_MS: String(graceMs),
      LOG_LEVEL: 'info',
    }),
  );
  servers.push(server);
  return server;
}

describe('stopping on SIGTERM', () => {
  it('turns readiness 503 and serves every other route through the grace; a second signal ends it', async () => {
    // A grace far longer than the test: the process can only end within it by the second signal.
    const server = await serverWithGrace(600_000);
    const { token } = await openSession(server.url);
    const exited = exitOf(server);

    server.child.kill('SIGTERM');
    await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, { timeout: 10_000, interval: 50 }).toBe(503);
    const readiness = errorBodySchema.parse(await (await fetch(`${server.url}/readyz`)).json());
    expect(readiness.error.code).toBe('shutting_down');

    // The proxy has not noticed yet: whatever it still sends is served as before, writes included.
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const started = await fetch(`${server.url}/api/task/start`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(started.status).toBe(200);
    expect((await requestSession(server.url)).status).toBe(200);
    expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).toContain('SHUTDOWN_GRACE_MS');

    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(server.output()).toContain('a second signal ends the grace now');
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  }, 30_000);

  it('closes by itself once the grace has passed, and exits 0', async () => {
    const server = await serverWithGrace(300);
    const exited = exitOf(server);
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const output = server.output();
    expect(output.indexOf('still serving for 300 ms')).toBeGreaterThan(-1);
    expect(output.indexOf('no new connections')).toBeGreaterThan(output.indexOf('still serving for 300 ms'));
    expect(output).not.toContain('a second signal');
  }, 30_000);
});
