import { describe, expect, it } from 'vitest';
import { createApiClient } from '@partner-task-kit/page/api/api-client';
import { ApiError } from '@partner-task-kit/page/api/api-error';
import { taskViewSchema } from '@partner-task-kit/workflow/contract/task-view';
import { pageContext, readyTaskView } from '@partner-task-kit/testing';

const context = pageContext;
const task = readyTaskView;

/** A fake server: sessions numbered token-1, token-2...; the test decides what the task endpoint answers. */
function fakeServer(now: () => number, taskAnswer: (token: string | undefined) => { status: number; body: unknown }) {
  const calls: { path: string; init: RequestInit }[] = [];
  let sessions = 0;
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    calls.push({ path, init });
    if (path === '/api/session') {
      sessions += 1;
      const body = {
        token: `token-${sessions}`,
        expiresAt: new Date(now() + 15 * 60_000).toISOString(),
        task,
        environment: { emulator: true },
      };
      return new Response(JSON.stringify(body), { status: 200 });
    }
    const authorization = new Headers(init.headers).get('authorization') ?? undefined;
    const answer = taskAnswer(authorization?.replace('Bearer ', ''));
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls, sessions: () => sessions };
}

describe('the API client: session tokens, no cookies', () => {
  it('opens a session first, then sends the token as a bearer, with no cookies and the task named', async () => {
    const time = 0;
    const server = fakeServer(
      () => time,
      () => ({ status: 200, body: task }),
    );
    const client = createApiClient({ context, fetch: server.fetch, now: () => time });
    await client.call('GET', '/api/task', taskViewSchema);
    expect(server.calls.map((c) => c.path)).toEqual(['/api/session', '/api/task']);
    const headers = new Headers(server.calls[1]?.init.headers);
    expect(headers.get('authorization')).toBe('Bearer token-1');
    expect(headers.get('x-wx-assigned-task-uuid')).toBe(context.wxAssignedTaskUuid);
    expect(server.calls.every((c) => c.init.credentials === 'omit')).toBe(true);
    expect(JSON.parse(String(server.calls[0]?.init.body))).toEqual(context);
  });

  it('renews the token before it expires', async () => {
    let time = 0;
    const server = fakeServer(
      () => time,
      () => ({ status: 200, body: task }),
    );
    const client = createApiClient({ context, fetch: server.fetch, now: () => time });
    await client.call('GET', '/api/task', taskViewSchema);
    time = 9 * 60_000;
    await client.call('GET', '/api/task', taskViewSchema);
    expect(server.sessions()).toBe(1);
    time = 11 * 60_000; // less than 5 minutes left
    await client.call('GET', '/api/task', taskViewSchema);
    expect(server.sessions()).toBe(2);
    expect(new Headers(server.calls.at(-1)?.init.headers).get('authorization')).toBe('Bearer token-2');
  });

  it('renews once and retries when the server says the token expired', async () => {
    const time = 0;
    const server = fakeServer(
      () => time,
      (token) =>
        token === 'token-1' ? { status: 401, body: { error: { code: 'token_expired', message: 'expired' } } } : { status: 200, body: task },
    );
    const client = createApiClient({ context, fetch: server.fetch, now: () => time });
    await expect(client.call('GET', '/api/task', taskViewSchema)).resolves.toEqual(task);
    expect(server.sessions()).toBe(2);
  });

  it('hands an upload the current token: the same while it is fresh, a new one near expiry or when asked to renew', async () => {
    let time = 0;
    const server = fakeServer(
      () => time,
      () => ({ status: 200, body: task }),
    );
    const client = createApiClient({ context, fetch: server.fetch, now: () => time });
    expect(await client.sessionToken()).toBe('token-1');
    expect(await client.sessionToken()).toBe('token-1');
    // The server refused it (a restart with a new secret): the next one is new.
    expect(await client.sessionToken({ renew: true })).toBe('token-2');
    time = 11 * 60_000;
    expect(await client.sessionToken()).toBe('token-3');
    expect(server.sessions()).toBe(3);
  });

  it('shares one session request between concurrent calls', async () => {
    const server = fakeServer(
      () => 0,
      () => ({ status: 200, body: task }),
    );
    const client = createApiClient({ context, fetch: server.fetch, now: () => 0 });
    await Promise.all([1, 2, 3].map(() => client.call('GET', '/api/task', taskViewSchema)));
    expect(server.sessions()).toBe(1);
  });

  it('turns an error body into an ApiError with its code, and a failed fetch into "network"', async () => {
    const server = fakeServer(
      () => 0,
      () => ({ status: 409, body: { error: { code: 'task_closed', message: 'closed' } } }),
    );
    const client = createApiClient({ context, fetch: server.fetch, now: () => 0 });
    await expect(client.call('GET', '/api/task', taskViewSchema)).rejects.toMatchObject({ status: 409, code: 'task_closed' });
    const offline = createApiClient({ context, fetch: async () => Promise.reject(new TypeError('Failed to fetch')), now: () => 0 });
    const error = await offline.openSession().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'network', status: 0 });
  });

  it('gives up on a request that gets no answer, as a network failure the page can retry', async () => {
    // A connection that stays open with nothing coming back: only the request's own signal ends it.
    const silent = (_input: RequestInfo | URL, init: RequestInit = {}) =>
      new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const client = createApiClient({ context, fetch: silent, now: () => 0, timeoutMs: 50 });
    const started = Date.now();
    const error = await client.openSession().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'network', status: 0 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
