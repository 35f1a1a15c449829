import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@partner-task-kit/workflow/contract/api-errors';
import { havePostgresBinaries, PG_BIN, PrivateCluster } from '../helpers/private-postgres';
import { freePort, launchServer, type LaunchedServer } from '../helpers/server-process';

/** One answer: its status and body, or status 0 when the connection itself failed. */
async function ask(url: string): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
  } catch {
    return { status: 0, retryAfter: null, body: undefined };
  }
}

describe.skipIf(!havePostgresBinaries)(
  `a server started before its Postgres${havePostgresBinaries ? '' : ` (skipped: no initdb and pg_ctl in ${PG_BIN})`}`,
  () => {
    let directory: string | undefined;
    let cluster: PrivateCluster | undefined;
    let server: LaunchedServer | undefined;

    beforeAll(async () => {
      directory = mkdtempSync(join(tmpdir(), 'ptk-pg-late-'));
      cluster = new PrivateCluster(directory, await freePort());
      await cluster.init();
    }, 60_000);

    afterAll(async () => {
      await server?.kill('SIGKILL');
      await cluster?.destroy().catch(() => {});
      if (directory) rmSync(directory, { recursive: true, force: true });
    }, 60_000);

    it('is alive and not ready while it waits, then serves on the same port without a gap', async ({ onTestFailed }) => {
      const db = cluster!;
      // Emulator mode: the platform is beside the point here; the database is what the server waits for.
      server = await launchServer({ DATABASE_URL: db.url('postgres'), LOG_LEVEL: 'info' });
      const { url } = server;
      onTestFailed(() => console.info(`--- server ---\n${server?.output()}\n--- postgres ---\n${db.logText()}`));

      // The listener answers before the database: liveness 200, once the first connection was refused.
      await expect.poll(() => server!.output(), { timeout: 30_000, interval: 50 }).toContain('waiting for the database');
      expect(await ask(`${url}/healthz`)).toEqual({ status: 200, retryAfter: null, body: { status: 'starting' } });
      const ready = await ask(`${url}/readyz`);
      expect(ready).toMatchObject({ status: 503, retryAfter: '2' });
      expect(errorBodySchema.parse(ready.body).error).toEqual({
        code: 'database_unreachable',
        message: 'Waiting for the database: it refuses the connection.',
      });
      // Every other route: 503 in the usual shape, with Retry-After.
      const task = await ask(`${url}/api/task`);
      expect(task).toMatchObject({ status: 503, retryAfter: '2' });
      expect(errorBodySchema.parse(task.body).error.code).toBe('starting');
      // The answer never names the database's host or port: /readyz answers anyone.
      expect(JSON.stringify(ready.body)).not.toContain(String(db.port));

      // Readiness is polled from now until it is 200, across the moment Postgres comes up.
      const answers: number[] = [];
      let polling = true;
      const poller = (async () => {
        while (polling) {
          answers.push((await ask(`${url}/readyz`)).status);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      try {
        await expect.poll(() => answers.length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(3);
        await db.start();
        await expect.poll(() => answers.at(-1), { timeout: 60_000, interval: 50 }).toBe(200);
        await expect.poll(() => answers.filter((status) => status === 200).length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(3);
      } finally {
        polling = false;
        await poller;
      }
      // 503 until the app serves, 200 from then on, and never a refused connection in between.
      const firstReady = answers.indexOf(200);
      expect(answers.slice(0, firstReady).every((status) => status === 503)).toBe(true);
      expect(answers.slice(firstReady).every((status) => status === 200)).toBe(true);
      expect(await ask(`${url}/healthz`)).toEqual({ status: 200, retryAfter: null, body: { status: 'ok' } });
      expect(server.child.exitCode).toBeNull();

      await server.kill('SIGTERM');
      expect(server.child.exitCode).toBe(0);
    }, 120_000);
  },
);
