import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { control } from '../helpers/emulator-control';
import { newContext, openSession, restartedTask } from '../helpers/task-app';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;
/** A delivery through the relay (token, then the update, over loopback) takes longer than vitest's 1 s on a busy machine. */
const DELIVERED = { timeout: 10_000 };

beforeEach(async () => {
  server = await startTestServer({ LOG_LEVEL: 'debug' }, { page: true });
});

afterEach(() => server.close());

describe('the server in emulator mode', () => {
  it('answers liveness and readiness', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'sqlite' });
  });

  it('logs routine polls at debug and every other request at info, one line each', async () => {
    await fetch(`${server.url}/healthz`);
    await fetch(`${server.url}/metrics`);
    await fetch(`${server.url}/api/task`);
    await server.store.close();
    await fetch(`${server.url}/readyz`);
    const levels = server.logLines
      .map((line) => JSON.parse(line) as { level: number; msg: string; req?: { method: string; url: string } })
      .filter((line) => line.msg === 'request completed')
      .map((line) => `${line.level} ${line.req?.method} ${line.req?.url}`);
    expect(levels).toEqual([
      '20 GET /healthz',
      '20 GET /metrics',
      // Not routine: a refusal, and a routine route that failed.
      '30 GET /api/task',
      '30 GET /readyz',
    ]);
  });

  it("logs the task page's path and assigned task id, never the worker's, flow's or company's UUID", async () => {
    const context = {
      wxWorkerUuid: '5e1c7a90-3b2d-4f8e-9a61-0c4d2b7e8f13',
      wxAssignedTaskUuid: '6a2d8b01-4c3e-4a9f-8b72-1d5e3c8f9a24',
      wxTaskFlowUuid: '7b3e9c12-5d4f-4b0a-9c83-2e6f4d9a0b35',
      wxCompanyUuid: '8c4f0d23-6e5a-4c1b-8d94-3f7a5e0b1c46',
    };
    const page = await fetch(`${server.url}/?workflow=safety-training&${new URLSearchParams(context).toString()}`);
    expect(page.status).toBe(200);
    const lines = server.logLines
      .map((line) => JSON.parse(line) as { msg: string; req?: { method: string; url: string; wxAssignedTaskUuid?: string } })
      .filter((line) => line.msg === 'request completed');
    expect(lines.map((line) => line.req)).toEqual([
      expect.objectContaining({ method: 'GET', url: '/', wxAssignedTaskUuid: context.wxAssignedTaskUuid }),
    ]);
    const logs = server.logLines.join('\n');
    for (const value of [context.wxWorkerUuid, context.wxTaskFlowUuid, context.wxCompanyUuid]) expect(logs).not.toContain(value);
    expect(logs).not.toContain('wxWorkerUuid');
  });

  it('reports not ready once the database is gone', async () => {
    await server.store.close();
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ error: { code: 'database_unreachable' } });
  });

  it('mounts the emulator and delivers to it over loopback HTTP', async () => {
    expect(server.config.upstream.taskBaseUrl).toBe(`${server.url}/emulator`);
    const emulator = control(`${server.url}/emulator`);
    const context = newContext();
    await emulator.assign(context.wxAssignedTaskUuid);
    // The worker opens the task: its `ready` is written, and the relay woken.
    await openSession(server.url, context);
    await expect.poll(async () => (await emulator.requests('partnerTask')).map((request) => request.status), DELIVERED).toEqual([200]);
  });

  it('answers 404 for a task its emulator never assigned, as the platform would', async () => {
    const emulator = control(`${server.url}/emulator`);
    await openSession(server.url);
    const statuses = async () => (await emulator.requests('partnerTask')).map((request) => request.status);
    await expect.poll(statuses, DELIVERED).toContain(404);
    // The relay may have tried again meanwhile (a refusal is retried before the task is rejected): each is a 404.
    expect(new Set(await statuses())).toEqual(new Set([404]));
  });

  it('exposes delivery figures in Prometheus text', async () => {
    const context = newContext();
    await control(`${server.url}/emulator`).assign(context.wxAssignedTaskUuid);
    await restartedTask(server.url, context);
    await expect
      .poll(
        async () =>
          (await (await fetch(`${server.url}/metrics`)).text()).match(
            /^partner_task_updates_delivered_total\{lane="platform"\} (\d+)$/m,
          )?.[1],
        DELIVERED,
      )
      .toBe('3');
    const response = await fetch(`${server.url}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(/^partner_task_outbox_pending\{lane="platform"\} 0$/m);
    expect(text).toMatch(/^partner_task_outbox_dead_letters\{lane="platform"\} 0$/m);
    expect(text).toMatch(/^partner_task_token_requests_total\{tenant="default"\} 1$/m);
    expect(text).toMatch(/^partner_task_enqueue_to_delivered_seconds_count\{lane="platform"\} 3$/m);
  });

  it('never writes a bearer token or the credential into its logs', async () => {
    const context = newContext();
    await control(`${server.url}/emulator`).assign(context.wxAssignedTaskUuid);
    await openSession(server.url, context);
    const emulator = control(`${server.url}/emulator`);
    await expect.poll(async () => (await emulator.requests('partnerTask')).length, DELIVERED).toBe(1);
    const [delivery] = await emulator.requests('partnerTask');
    const bearer = String(delivery?.headers.authorization).replace('Bearer ', '');
    await fetch(`${server.url}/healthz`, { headers: { authorization: `Bearer ${bearer}` } });
    const logs = server.logLines.join('\n');
    expect(logs).toContain('"msg":"request completed"');
    expect(logs).not.toContain(bearer);
    expect(logs).not.toContain('emulator-secret');
  });
});
