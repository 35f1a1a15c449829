import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { emulatorPlugin, EmulatorState, type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { controlRequest, createAssignment, fetchToken, postUpdate, update, WORKERS_PATH } from './emulator-client';
import { ManualClock } from '../helpers/manual-clock';

describe('emulator: isolation and mounting', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  const start = async (options: Parameters<typeof startEmulator>[0] = {}): Promise<RunningEmulator> => {
    const emulator = await startEmulator(options);
    closers.push(() => emulator.close());
    return emulator;
  };

  it('runs two emulators side by side without sharing state', async () => {
    const a = await start();
    const b = await start();
    const tokenA = await fetchToken(a.url);
    const task = await createAssignment(a.url);
    expect((await fetch(`${b.url}${WORKERS_PATH}`, { headers: { authorization: `Bearer ${tokenA}` } })).status).toBe(401);
    expect((await controlRequest(b.url, 'GET', `/assignments/${task.assignedTaskUuid}`)).status).toBe(404);
    await controlRequest(b.url, 'POST', '/faults', { endpoint: 'any', kind: 'status' });
    expect((await postUpdate(a.url, tokenA, task.assignedTaskUuid, update('inProgress', 1))).status).toBe(200);
    expect(a.state.requests.list().length).toBe(2);
    expect(b.state.requests.list().length).toBe(1);
  });

  it('judges token expiry on an injected clock', async () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const emulator = await start({ clock, tokenLifetimeSeconds: 60 });
    const token = await fetchToken(emulator.url);
    clock.advance(59_999);
    expect((await fetch(`${emulator.url}${WORKERS_PATH}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    clock.advance(1);
    expect((await fetch(`${emulator.url}${WORKERS_PATH}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await controlRequest<{ now: string }>(emulator.url, 'GET', '/clock')).body.now).toBe('2030-01-01T00:01:00.000Z');
  });

  it('works under a prefix inside an app with its own routes, parsers, error and not-found handlers, without request logs', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app: FastifyInstance = Fastify({ logger: { level: 'info', stream } });
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ app: 'not found' }));
    app.setErrorHandler((_error, _request, reply) => reply.code(500).send({ app: 'error' }));
    app.get('/healthz', async () => ({ ok: true }));
    const state = new EmulatorState();
    await app.register(emulatorPlugin, { prefix: '/emulator', state });
    await app.register(emulatorPlugin, { prefix: '/emulator-b' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    closers.push(() => app.close());
    const root = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const base = `${root}/emulator`;

    const token = await fetchToken(base);
    const task = await createAssignment(base);
    expect((await postUpdate(base, token, task.assignedTaskUuid, update('completed', 1))).status).toBe(200);
    expect(state.assignments.get(task.assignedTaskUuid)?.status).toBe('completed');
    expect((await postUpdate(base, token, task.assignedTaskUuid, '{bad')).status).toBe(400);
    expect((await controlRequest(`${root}/emulator-b`, 'GET', `/assignments/${task.assignedTaskUuid}`)).status).toBe(404);
    expect(state.requests.list()[0]?.path).toBe('/emulator/api/servicesecurity/processes/apikey/oauth/token');

    expect(await (await fetch(`${root}/healthz`)).json()).toEqual({ ok: true });
    expect(await (await fetch(`${root}/elsewhere`)).json()).toEqual({ app: 'not found' });
    const emulatorMiss = (await (await fetch(`${base}/nothing`)).json()) as { error: { code: string } };
    expect(emulatorMiss.error.code).toBe('not_found');
    // Upstream requests and control reads write no log lines (a benchmark sends thousands a second, the preview polls);
    // a control action (here the assignment) is logged like any request of the host app.
    const logged = lines
      .map((line) => JSON.parse(line) as { req?: { method: string; url: string } })
      .filter((line) => line.req && /\/emulator(-b)?\/(api|control)\//.test(line.req.url));
    expect(logged.map((line) => `${line.req?.method} ${line.req?.url}`)).toEqual(['POST /emulator/control/assignments']);
  });
});
