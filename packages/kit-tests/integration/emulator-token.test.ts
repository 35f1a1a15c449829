import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import {
  basic,
  controlRequest,
  errorOf,
  fetchToken,
  partnerTaskPath,
  postUpdate,
  requestToken,
  TOKEN_PATH,
  TOKEN_QUERY,
  update,
  WORKERS_PATH,
} from './emulator-client';

const goodHeaders = { 'content-type': 'application/x-www-form-urlencoded', authorization: basic('emulator-key', 'emulator-secret') };

describe('emulator: the token endpoint of spec 4.1', () => {
  let emulator: RunningEmulator;
  beforeEach(async () => {
    emulator = await startEmulator();
  });
  afterEach(() => emulator.close());

  const tokenCall = (query: string, init: RequestInit) => fetch(`${emulator.url}${TOKEN_PATH}${query}`, init);

  it('issues a bearer token for the exact request of spec 4.1', async () => {
    const response = await requestToken(emulator.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'employer' });
  });

  it('refuses a method other than POST with 405', async () => {
    const response = await tokenCall(TOKEN_QUERY, { method: 'GET', headers: { authorization: goodHeaders.authorization } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await errorOf(response)).code).toBe('method_not_allowed');
  });

  it.for([
    ['a missing grant_type', '?scopes=employer', 'grant_type'],
    ['a wrong grant_type', '?grant_type=password&scopes=employer', 'grant_type'],
    ['missing scopes', '?grant_type=client_credentials', 'scopes'],
    ['a wrong scopes value', '?grant_type=client_credentials&scopes=admin', 'scopes'],
    ['scope spelled without s', '?grant_type=client_credentials&scope=employer', 'scopes'],
  ] as const)('refuses %s with 400 naming the parameter', async ([, query, field]) => {
    const response = await tokenCall(query, { method: 'POST', headers: goodHeaders });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'invalid_query', field });
  });

  it.for(['application/json', 'text/plain'])('refuses the content type %s with 415', async (contentType) => {
    const response = await tokenCall(TOKEN_QUERY, { method: 'POST', headers: { ...goodHeaders, 'content-type': contentType }, body: '{}' });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe('unsupported_media_type');
  });

  it('refuses a request without Content-Type with 415', async () => {
    const response = await tokenCall(TOKEN_QUERY, { method: 'POST', headers: { authorization: goodHeaders.authorization } });
    expect(response.status).toBe(415);
  });

  it('tolerates a form body and a charset parameter', async () => {
    const response = await tokenCall(TOKEN_QUERY, {
      method: 'POST',
      headers: { ...goodHeaders, 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: 'grant_type=client_credentials',
    });
    expect(response.status).toBe(200);
  });

  it('refuses a request without Basic credentials with 401', async () => {
    const response = await tokenCall(TOKEN_QUERY, { method: 'POST', headers: { 'content-type': goodHeaders['content-type'] } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Basic');
    expect((await errorOf(response)).code).toBe('missing_credentials');
  });

  it.for([
    ['a wrong secret', basic('emulator-key', 'wrong')],
    ['an unknown key', basic('someone', 'emulator-secret')],
    ['a bearer instead of Basic', 'Bearer abc'],
  ] as const)('refuses %s with 401', async ([, authorization]) => {
    const response = await tokenCall(TOKEN_QUERY, { method: 'POST', headers: { ...goodHeaders, authorization } });
    expect(response.status).toBe(401);
  });

  it('accepts any configured credential', async () => {
    await emulator.close();
    emulator = await startEmulator({
      credentials: [
        { key: 'k1', secret: 's1' },
        { key: 'k2', secret: 's:2' },
      ],
    });
    expect((await requestToken(emulator.url, { key: 'k2', secret: 's:2' })).status).toBe(200);
    expect((await requestToken(emulator.url)).status).toBe(401);
  });

  it('expires a token after 60 minutes on the emulator clock', async () => {
    const token = await fetchToken(emulator.url);
    const uuid = '3f2a1b0c-1111-4222-8333-444455556666';
    emulator.clock.advance(59 * 60_000);
    expect((await postUpdate(emulator.url, token, uuid, update('inProgress', 1))).status).toBe(200);
    await controlRequest(emulator.url, 'POST', '/clock', { advanceMs: 60_000 });
    const expired = await postUpdate(emulator.url, token, uuid, update('completed', 2));
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await errorOf(expired)).code).toBe('token_expired');
    const renewed = await fetchToken(emulator.url);
    expect((await postUpdate(emulator.url, renewed, uuid, update('completed', 2))).status).toBe(200);
  });

  it('refuses a token it never issued, and a request with no token', async () => {
    const forged = await postUpdate(emulator.url, 'not-a-token', '3f2a1b0c-1111-4222-8333-444455556666', update('ready', 1));
    expect(forged.status).toBe(401);
    expect((await errorOf(forged)).code).toBe('invalid_token');
    const anonymous = await fetch(`${emulator.url}${partnerTaskPath('3f2a1b0c-1111-4222-8333-444455556666')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(update('ready', 1)),
    });
    expect(anonymous.status).toBe(401);
    expect((await errorOf(anonymous)).code).toBe('missing_token');
  });

  it.for([
    ['camelCase', ['accessToken', 'expiresIn', 'tokenType']],
    ['noExpiry', ['access_token']],
    ['unrecognized', ['jwt', 'ttl']],
    ['oauth', ['access_token', 'expires_in', 'scope', 'token_type']],
  ] as const)('answers in the %s token shape when set, and the token works', async ([tokenShape, keys]) => {
    expect((await controlRequest(emulator.url, 'PUT', '/settings', { tokenShape })).status).toBe(200);
    const body = (await (await requestToken(emulator.url)).json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual([...keys]);
    const token = body.access_token ?? body.accessToken ?? body.jwt ?? '';
    const workers = await fetch(`${emulator.url}${WORKERS_PATH}`, { headers: { authorization: `Bearer ${token}` } });
    expect(workers.status).toBe(200);
  });
});

describe('emulator: the workers endpoint of spec 4.2', () => {
  let emulator: RunningEmulator;
  beforeEach(async () => {
    emulator = await startEmulator();
  });
  afterEach(() => emulator.close());

  it.for(['authorization', 'application'])('lists workers with the bearer token in the %s header and echoes the query', async (header) => {
    const token = await fetchToken(emulator.url);
    const { body: task } = await controlRequest<{ workerUuid: string; assignedTaskUuid: string }>(emulator.url, 'POST', '/assignments', {
      title: 'Quiz',
      iframeUrl: 'https://partner.example.com/',
    });
    const response = await fetch(`${emulator.url}${WORKERS_PATH}?page=2&status=active`, { headers: { [header]: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Array<{ uuid: string; assignedTaskUuids: string[] }>; query: unknown };
    expect(body.query).toEqual({ page: '2', status: 'active' });
    expect(body.data.find((worker) => worker.uuid === task.workerUuid)?.assignedTaskUuids).toEqual([task.assignedTaskUuid]);
    expect(body.data.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses the workers listing without a valid token', async () => {
    expect((await fetch(`${emulator.url}${WORKERS_PATH}`)).status).toBe(401);
    expect((await fetch(`${emulator.url}${WORKERS_PATH}`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
  });

  it('refuses a method other than GET with 405', async () => {
    const token = await fetchToken(emulator.url);
    const response = await fetch(`${emulator.url}${WORKERS_PATH}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(405);
  });
});
