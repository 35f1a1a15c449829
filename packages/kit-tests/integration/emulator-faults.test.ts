import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fault } from '@partner-task-kit/dev/emulator/fault-queue';
import type { LoggedRequest } from '@partner-task-kit/dev/emulator/request-log';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import {
  controlRequest,
  errorOf,
  fetchToken,
  getAssignment,
  partnerTaskPath,
  postUpdate,
  requestToken,
  update,
  WORKERS_PATH,
} from './emulator-client';

const uuid = '0f9e8d7c-6b5a-4f3e-9d2c-1b0a99887766';

/** Fault injection through POST /control/faults: each kind, consumed in order by the next matching requests. */
describe('emulator: injected faults', () => {
  let emulator: RunningEmulator;
  let token: string;
  beforeEach(async () => {
    emulator = await startEmulator();
    token = await fetchToken(emulator.url);
  });
  afterEach(() => emulator.close());

  const addFault = (fault: Record<string, unknown>) => controlRequest<Fault>(emulator.url, 'POST', '/faults', fault);

  it('answers the injected status with an error body for the next count matching requests', async () => {
    expect((await addFault({ endpoint: 'partnerTask', kind: 'status', status: 502, count: 2 })).status).toBe(201);
    const first = await postUpdate(emulator.url, token, uuid, update('inProgress', 1));
    expect(first.status).toBe(502);
    expect((await errorOf(first)).code).toBe('injected_fault');
    expect((await postUpdate(emulator.url, token, uuid, update('inProgress', 1))).status).toBe(502);
    expect((await postUpdate(emulator.url, token, uuid, update('inProgress', 1))).status).toBe(200);
    const { body } = await controlRequest<{ requests: LoggedRequest[] }>(emulator.url, 'GET', '/requests?endpoint=partnerTask');
    expect(body.requests.map((r) => [r.status, r.fault])).toEqual([
      [502, 'status'],
      [502, 'status'],
      [200, undefined],
    ]);
  });

  it('lets a fault aimed at one assigned task fail only that task’s updates (for the preview portal)', async () => {
    const other = '9b2d7c1e-4f3a-4e2b-9c8d-7a6b5c4d3e2f';
    await addFault({ endpoint: 'partnerTask', kind: 'status', count: 1, assignedTaskUuid: uuid.toUpperCase() });
    expect((await postUpdate(emulator.url, token, other, update('inProgress', 1))).status).toBe(200);
    expect((await postUpdate(emulator.url, token, uuid, update('inProgress', 1))).status).toBe(503);
    expect((await postUpdate(emulator.url, token, uuid, update('inProgress', 1))).status).toBe(200);
  });

  it('clears only the faults aimed at one task when asked', async () => {
    await addFault({ endpoint: 'partnerTask', kind: 'status', count: 5, assignedTaskUuid: uuid });
    await addFault({ endpoint: 'workers', kind: 'status', count: 5 });
    expect((await controlRequest(emulator.url, 'DELETE', `/faults?assignedTaskUuid=${uuid}`)).body).toEqual({ cleared: 1 });
    expect((await controlRequest<{ faults: Fault[] }>(emulator.url, 'GET', '/faults')).body.faults).toEqual([
      expect.objectContaining({ endpoint: 'workers' }),
    ]);
  });

  it('defaults a status fault to 503 and applies it to the token endpoint', async () => {
    await addFault({ endpoint: 'token', kind: 'status' });
    expect((await requestToken(emulator.url)).status).toBe(503);
    expect((await requestToken(emulator.url)).status).toBe(200);
  });

  it('answers 429 with Retry-After for a rate limit fault', async () => {
    await addFault({ endpoint: 'workers', kind: 'rateLimit', retryAfterSeconds: 7 });
    const limited = await fetch(`${emulator.url}${WORKERS_PATH}`, { headers: { authorization: `Bearer ${token}` } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await errorOf(limited)).code).toBe('rate_limited');
  });

  it('waits before answering normally for a delay fault', async () => {
    await addFault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 300 });
    const started = performance.now();
    const response = await postUpdate(emulator.url, token, uuid, update('inProgress', 1));
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
    expect((await getAssignment(emulator.url, uuid)).status).toBe('inProgress');
  });

  it('ends a delayed request whose client gave up, unapplied, and still closes promptly', async () => {
    await addFault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 200 });
    const request = fetch(`${emulator.url}${partnerTaskPath(uuid)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(update('inProgress', 1)),
      signal: AbortSignal.timeout(50),
    });
    await expect(request).rejects.toThrow();
    // Once the delay is over the emulator finds its client gone and ends the request without applying it.
    await expect
      .poll(
        async () =>
          (await controlRequest<{ requests: LoggedRequest[] }>(emulator.url, 'GET', '/requests?endpoint=partnerTask')).body.requests[0]
            ?.ended,
        { timeout: 5_000 },
      )
      .toBe(true);
    expect((await controlRequest(emulator.url, 'GET', `/assignments/${uuid}`)).status).toBe(404);
    // Promptly: a close held up by the request would wait out a keep-alive (72 s) or a delay fault (up to 600 s); a
    // busy machine's close takes a second or two at worst.
    const closing = performance.now();
    await emulator.close();
    expect(performance.now() - closing).toBeLessThan(5_000);
    emulator = await startEmulator();
  });

  it('closes the connection without an answer for a drop fault, and applies nothing', async () => {
    await addFault({ endpoint: 'partnerTask', kind: 'drop' });
    await expect(postUpdate(emulator.url, token, uuid, update('inProgress', 1))).rejects.toThrow();
    expect((await controlRequest(emulator.url, 'GET', `/assignments/${uuid}`)).status).toBe(404);
    expect((await postUpdate(emulator.url, token, uuid, update('inProgress', 1))).status).toBe(200);
    const { body } = await controlRequest<{ requests: LoggedRequest[] }>(emulator.url, 'GET', '/requests?endpoint=partnerTask&limit=2');
    expect(body.requests.map((r) => [r.status, r.fault])).toEqual([
      [null, 'drop'],
      [200, undefined],
    ]);
  });

  it('applies the update and then loses the answer for a drop fault with after, so a redelivery is a duplicate', async () => {
    await addFault({ endpoint: 'partnerTask', kind: 'drop', after: true });
    const record = update('completed', 4);
    await expect(postUpdate(emulator.url, token, uuid, record)).rejects.toThrow();
    expect((await getAssignment(emulator.url, uuid)).status).toBe('completed');
    const redelivered = (await (await postUpdate(emulator.url, token, uuid, record)).json()) as { outcome: string };
    expect(redelivered.outcome).toBe('duplicate');
    const { body } = await controlRequest<{ requests: LoggedRequest[] }>(emulator.url, 'GET', '/requests?endpoint=partnerTask');
    expect(body.requests.map((r) => [r.status, r.fault])).toEqual([
      [null, 'drop'],
      [200, undefined],
    ]);
  });

  it('applies the update before waiting for a delay fault with after', async () => {
    await addFault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 400, after: true });
    let answered = false;
    const late = postUpdate(emulator.url, token, uuid, update('inProgress', 1)).finally(() => (answered = true));
    await expect.poll(async () => (await controlRequest(emulator.url, 'GET', `/assignments/${uuid}`)).status, { timeout: 5_000 }).toBe(200);
    expect((await getAssignment(emulator.url, uuid)).status).toBe('inProgress');
    // Applied while the answer is still held back by the fault.
    expect(answered).toBe(false);
    expect((await late).status).toBe(200);
  });

  it('expires the presented token for an expireToken fault, so the client must renew', async () => {
    await addFault({ endpoint: 'any', kind: 'expireToken' });
    // The token endpoint carries no bearer token, so the fault waits for the next request that does.
    const second = await fetchToken(emulator.url);
    const refused = await postUpdate(emulator.url, token, uuid, update('inProgress', 1));
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).code).toBe('token_expired');
    expect((await postUpdate(emulator.url, token, uuid, update('inProgress', 1))).status).toBe(401);
    expect((await postUpdate(emulator.url, second, uuid, update('inProgress', 1))).status).toBe(200);
  });

  it('consumes faults in the order they were added', async () => {
    await addFault({ endpoint: 'any', kind: 'status', status: 500 });
    await addFault({ endpoint: 'partnerTask', kind: 'rateLimit' });
    expect((await postUpdate(emulator.url, token, uuid, update('inProgress', 1))).status).toBe(500);
    expect((await postUpdate(emulator.url, token, uuid, update('inProgress', 1))).status).toBe(429);
    expect((await postUpdate(emulator.url, token, uuid, update('inProgress', 1))).status).toBe(200);
  });

  it('lists the pending faults and clears them', async () => {
    await addFault({ endpoint: 'workers', kind: 'status', count: 3 });
    const listed = await controlRequest<{ faults: Fault[] }>(emulator.url, 'GET', '/faults');
    expect(listed.body.faults).toEqual([expect.objectContaining({ endpoint: 'workers', kind: 'status', count: 3, remaining: 3 })]);
    expect((await controlRequest(emulator.url, 'DELETE', '/faults')).body).toEqual({ cleared: 1 });
    expect((await fetch(`${emulator.url}${WORKERS_PATH}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it.for([
    ['an unknown kind', { endpoint: 'any', kind: 'explode' }, 'kind'],
    ['an unknown endpoint', { endpoint: 'control', kind: 'drop' }, 'endpoint'],
    ['a success status', { endpoint: 'any', kind: 'status', status: 200 }, 'status'],
    ['a count of zero', { endpoint: 'any', kind: 'drop', count: 0 }, 'count'],
    ['a delay without delayMs', { endpoint: 'any', kind: 'delay' }, 'delayMs'],
    ['delayMs on another kind', { endpoint: 'any', kind: 'drop', delayMs: 5 }, 'delayMs'],
    ['after on a status fault', { endpoint: 'any', kind: 'status', after: true }, 'after'],
    ['expireToken on the token endpoint', { endpoint: 'token', kind: 'expireToken' }, 'endpoint'],
    ['an unknown key', { endpoint: 'any', kind: 'drop', times: 2 }, 'times'],
    [
      'a task on another endpoint',
      { endpoint: 'any', kind: 'drop', assignedTaskUuid: '9b2d7c1e-4f3a-4e2b-9c8d-7a6b5c4d3e2f' },
      'assignedTaskUuid',
    ],
  ] as const)('refuses a fault with %s with 400 naming the field', async ([, fault, field]) => {
    const response = await controlRequest<{ error: { code: string; field: string } }>(emulator.url, 'POST', '/faults', fault);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_body', field });
  });
});
