import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '@partner-task-kit/page/api/api-client';
import { startEarlySession, takeEarlySession } from '@partner-task-kit/page/api/early-session';
import { pageContext, readyTaskView } from '@partner-task-kit/testing';

const context = pageContext;
const search = `?${new URLSearchParams(context).toString()}`;
const task = readyTaskView;

/** The browser's fetch, recorded: the early request is sent by the page itself, before any client exists. */
function recordFetch() {
  const calls: { path: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ path: String(input), init });
    const body = {
      token: `token-${calls.length}`,
      expiresAt: new Date(Date.now() + 900_000).toISOString(),
      task,
      environment: { emulator: true },
    };
    return new Response(JSON.stringify(body), { status: 200 });
  });
  return calls;
}

describe('the early session request (sent while the app still downloads)', () => {
  afterEach(() => {
    takeEarlySession(context);
    vi.unstubAllGlobals();
  });

  it('is sent once for a valid context, as the client would send it, and is then used by the client', async () => {
    const calls = recordFetch();
    startEarlySession({ pathname: '/', search });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.path).toBe('/api/session');
    expect(calls[0]?.init).toMatchObject({ method: 'POST', credentials: 'omit', body: JSON.stringify(context) });

    const client = createApiClient({ context, fetch: () => Promise.reject(new Error('the client must not ask again')) });
    await expect(client.openSession()).resolves.toMatchObject({ token: 'token-1' });
    // Handed out once: a renewal is a new request.
    expect(takeEarlySession(context)).toBeUndefined();
  });

  it('makes no request for a missing or invalid context, nor on the preview portal', () => {
    const calls = recordFetch();
    startEarlySession({ pathname: '/', search: '' });
    startEarlySession({ pathname: '/', search: search.replace(context.wxCompanyUuid, 'not-a-uuid') });
    startEarlySession({ pathname: '/preview', search });
    expect(calls).toHaveLength(0);
    expect(takeEarlySession(context)).toBeUndefined();
  });

  it('is not handed to a client of another task', () => {
    recordFetch();
    startEarlySession({ pathname: '/', search });
    expect(takeEarlySession({ ...context, wxAssignedTaskUuid: '55555555-5555-4555-8555-555555555555' })).toBeUndefined();
    expect(takeEarlySession(context)).toBeDefined();
  });

  it('sends the workflow the link names, and hands the answer only to a client asking for that same workflow', async () => {
    const calls = recordFetch();
    startEarlySession({ pathname: '/', search: `?workflow=availability&${search.slice(1)}` });
    expect(calls[0]?.init.body).toBe(JSON.stringify({ ...context, workflow: 'availability' }));
    expect(takeEarlySession(context)).toBeUndefined();
    const client = createApiClient({ context, workflow: 'availability', fetch: () => Promise.reject(new Error('must not ask again')) });
    await expect(client.openSession()).resolves.toMatchObject({ token: 'token-1' });
  });

  it('sends no workflow for a blank variable (the server then runs its default)', () => {
    const calls = recordFetch();
    startEarlySession({ pathname: '/', search: `${search}&workflow=%20` });
    expect(calls[0]?.init.body).toBe(JSON.stringify(context));
  });
});
