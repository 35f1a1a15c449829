import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMULATOR_CREDENTIAL, OffsetClock, type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { type UpstreamConfig } from '@partner-task-kit/server/config';
import { createWorkforceClient, type WorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { control, type RecordedRequest } from '../helpers/emulator-control';

const TASK = '7a0c5f7e-3b9f-4c61-9a53-1c2d3e4f5a6b';
const anUpdate = () => ({ taskStatus: 'inProgress' as const, sentAt: new Date().toISOString() });

let emulator: RunningEmulator;
let clock: OffsetClock;
let client: WorkforceClient;

function upstreamFor(url: string, overrides: Partial<UpstreamConfig> = {}): UpstreamConfig {
  return { authUrl: url, baseUrl: url, taskBaseUrl: url, credential: { ...EMULATOR_CREDENTIAL }, timeoutMs: 2000, ...overrides };
}

beforeEach(async () => {
  clock = new OffsetClock();
  // The client and the emulator share one clock, so moving it ages the token on both sides.
  emulator = await startEmulator({ clock });
  client = createWorkforceClient({ upstream: upstreamFor(emulator.url), clock });
});

afterEach(async () => {
  await emulator.close();
});

const requests = (endpoint: string): Promise<RecordedRequest[]> => control(emulator.url).requests(endpoint);

describe('token request (spec 4.1)', () => {
  it('posts grant_type and scopes in the query, a form content type, HTTP Basic key:secret and no body', async () => {
    expect(await client.listWorkers()).toMatchObject({ kind: 'ok', status: 200 });
    const [token] = await requests('token');
    expect(token).toMatchObject({
      method: 'POST',
      path: '/api/servicesecurity/processes/apikey/oauth/token',
      query: { grant_type: 'client_credentials', scopes: 'employer' },
      status: 200,
    });
    expect(token?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const basic = Buffer.from(`${EMULATOR_CREDENTIAL.key}:${EMULATOR_CREDENTIAL.secret}`).toString('base64');
    expect(token?.headers.authorization).toBe(`Basic ${basic}`);
    expect(token?.body ?? '').toBe('');
    expect(token?.headers['content-length'] ?? '0').toBe('0');
  });

  it('makes one token request for 100 concurrent calls with an empty cache', async () => {
    const outcomes = await Promise.all(Array.from({ length: 100 }, () => client.updatePartnerTask(TASK, anUpdate())));
    expect(outcomes.every((outcome) => outcome.kind === 'delivered')).toBe(true);
    expect(await requests('token')).toHaveLength(1);
    expect(client.tokenCache.requestCount).toBe(1);
  });

  it('renews a token near expiry before it lapses, and never sends an expired one', async () => {
    await client.listWorkers();
    clock.advance(56 * 60_000); // inside the five-minute renewal window
    await client.listWorkers();
    // The renewal runs in the background: a busy machine may take more than vitest's 1 s default to make it.
    await expect.poll(async () => (await requests('token')).length, { timeout: 10_000 }).toBe(2);
    clock.advance(10 * 60_000); // the first token has expired by now; the renewed one has not
    expect(await client.listWorkers()).toMatchObject({ kind: 'ok' });
    const workerCalls = await requests('workers');
    expect(workerCalls.map((call) => call.status)).toEqual([200, 200, 200]);
    expect(workerCalls[2]?.headers.authorization).not.toBe(workerCalls[0]?.headers.authorization);
  });

  it('waits for a new token instead of using one that has expired', async () => {
    await client.listWorkers();
    clock.advance(61 * 60_000);
    expect(await client.listWorkers()).toMatchObject({ kind: 'ok' });
    expect((await requests('workers')).map((call) => call.status)).toEqual([200, 200]);
    expect(await requests('token')).toHaveLength(2);
  });

  it('tolerates a camelCase token response', async () => {
    await control(emulator.url).settings({ tokenShape: 'camelCase' });
    expect(await client.updatePartnerTask(TASK, anUpdate())).toMatchObject({ kind: 'delivered' });
  });

  it('assumes 60 minutes when the response states no lifetime', async () => {
    await control(emulator.url).settings({ tokenShape: 'noExpiry' });
    await client.listWorkers();
    clock.advance(50 * 60_000);
    await client.listWorkers();
    expect(await requests('token')).toHaveLength(1);
    clock.advance(6 * 60_000);
    await client.listWorkers();
    // The renewal runs in the background: a busy machine may take more than vitest's 1 s default to make it.
    await expect.poll(async () => (await requests('token')).length, { timeout: 10_000 }).toBe(2);
  });

  it('fails with the keys received, never their values, when the token field is unrecognised', async () => {
    await control(emulator.url).settings({ tokenShape: 'unrecognized' });
    const outcome = await client.listWorkers();
    expect(outcome).toMatchObject({ kind: 'auth_failed', reason: 'unrecognized_token_response' });
    if (outcome.kind !== 'auth_failed') throw new Error('unreachable');
    // The exact sentence proves no value slipped in: only the key names are listed.
    expect(outcome.detail).toBe('token response has no field we recognise as the access token; keys received: jwt, ttl');
  });

  it('reports refused credentials as auth_failed without retrying them', async () => {
    const wrong = createWorkforceClient({
      upstream: upstreamFor(emulator.url, { credential: { key: EMULATOR_CREDENTIAL.key, secret: 'wrong' } }),
      clock,
    });
    expect(await wrong.updatePartnerTask(TASK, anUpdate())).toMatchObject({
      kind: 'auth_failed',
      reason: 'credentials_rejected',
      status: 401,
    });
    expect(await requests('partnerTask')).toHaveLength(0);
  });
});

describe('a 401 on a call (spec 5)', () => {
  it('drops the token, renews once and retries once', async () => {
    await client.listWorkers();
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'expireToken' });
    expect(await client.updatePartnerTask(TASK, anUpdate())).toMatchObject({ kind: 'delivered' });
    expect((await requests('partnerTask')).map((call) => call.status)).toEqual([401, 200]);
    expect(await requests('token')).toHaveLength(2);
  });

  it('gives up as token_rejected when the renewed token is refused too', async () => {
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'expireToken', count: 2 });
    expect(await client.updatePartnerTask(TASK, anUpdate())).toMatchObject({ kind: 'token_rejected', status: 401 });
    expect((await requests('partnerTask')).map((call) => call.status)).toEqual([401, 401]);
    expect(await requests('token')).toHaveLength(2);
  });
});

describe('classification of every outcome', () => {
  it('classifies a 5xx as retryable', async () => {
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'status', status: 502 });
    expect(await client.updatePartnerTask(TASK, anUpdate())).toMatchObject({ kind: 'retryable', reason: 'server_error', status: 502 });
  });

  it('classifies a 429 as retryable and keeps its Retry-After', async () => {
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'rateLimit', retryAfterSeconds: 7 });
    expect(await client.updatePartnerTask(TASK, anUpdate())).toMatchObject({
      kind: 'retryable',
      reason: 'rate_limited',
      status: 429,
      retryAfterMs: 7000,
    });
  });

  it('classifies a 408 as retryable', async () => {
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'status', status: 408 });
    expect(await client.updatePartnerTask(TASK, anUpdate())).toMatchObject({ kind: 'retryable', reason: 'request_timeout' });
  });

  it('classifies no answer within the timeout as retryable', async () => {
    const impatient = createWorkforceClient({ upstream: upstreamFor(emulator.url, { timeoutMs: 200 }), clock });
    await impatient.listWorkers();
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 1000 });
    expect(await impatient.updatePartnerTask(TASK, anUpdate())).toMatchObject({ kind: 'retryable', reason: 'timeout' });
  });

  it('classifies a dropped connection as retryable', async () => {
    await client.listWorkers();
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'drop' });
    expect(await client.updatePartnerTask(TASK, anUpdate())).toMatchObject({ kind: 'retryable', reason: 'network' });
  });

  it('classifies a refused connection as retryable', async () => {
    const nowhere = createWorkforceClient({ upstream: upstreamFor('http://127.0.0.1:9'), clock });
    expect(await nowhere.updatePartnerTask(TASK, anUpdate())).toMatchObject({ kind: 'retryable', reason: 'network' });
  });

  it('tells a task the platform does not know (404) apart, keeping the start of the body', async () => {
    await control(emulator.url).settings({ unknownTasks: 'reject' });
    const outcome = await client.updatePartnerTask(TASK, anUpdate());
    expect(outcome).toMatchObject({ kind: 'unknown_task', status: 404 });
    if (outcome.kind !== 'unknown_task') throw new Error('unreachable');
    expect(outcome.detail).toContain('task_not_found');
  });

  it('classifies another 4xx as permanent and keeps the start of the body', async () => {
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'status', status: 422, count: 1 });
    const outcome = await client.updatePartnerTask(TASK, anUpdate());
    expect(outcome).toMatchObject({ kind: 'permanent', reason: 'rejected', status: 422 });
  });

  it('refuses to send a record that breaks spec 2.6', async () => {
    const outcome = await client.updatePartnerTask('not-a-uuid', {
      taskStatus: 'completed',
      sentAt: 'yesterday',
      partnerStatus: { label: 'x'.repeat(33) },
    });
    expect(outcome).toMatchObject({ kind: 'permanent', reason: 'invalid_record' });
    if (outcome.kind !== 'permanent') throw new Error('unreachable');
    expect(outcome.detail).toMatch(/assignedTaskUuid.*sentAt.*partnerStatus\.label/);
    expect(await requests('partnerTask')).toHaveLength(0);
  });
});

describe('workers (spec 4.2)', () => {
  it('passes query parameters through and returns the JSON body', async () => {
    const outcome = await client.listWorkers({ status: 'active', tag: ['a', 'b'] });
    expect(outcome).toMatchObject({ kind: 'ok', status: 200 });
    const [call] = await requests('workers');
    expect(call?.query).toEqual({ status: 'active', tag: ['a', 'b'] });
    expect(call?.headers.authorization).toMatch(/^Bearer /);
  });
});

describe('token endpoint failures', () => {
  it('shares one failed token request among concurrent callers and waits before asking again', async () => {
    await control(emulator.url).fault({ endpoint: 'token', kind: 'status', status: 503, count: 1 });
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => client.updatePartnerTask(TASK, anUpdate())));
    expect(outcomes.every((outcome) => outcome.kind === 'retryable' && outcome.reason === 'server_error')).toBe(true);
    // Inside the cooldown a caller gets the same failure without a new request.
    expect(await client.updatePartnerTask(TASK, anUpdate())).toMatchObject({ kind: 'retryable', status: 503 });
    expect(await requests('token')).toHaveLength(1);
    clock.advance(6_000);
    expect(await client.updatePartnerTask(TASK, anUpdate())).toMatchObject({ kind: 'delivered' });
    expect(await requests('token')).toHaveLength(2);
  });
});
