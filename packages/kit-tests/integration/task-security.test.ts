import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@partner-task-kit/server/app';
import { systemClock } from '@partner-task-kit/server/clock';
import { parseConfig } from '@partner-task-kit/server/config';
import { confirmTasks } from '@partner-task-kit/server/store/tasks.repository';
import { testDatabases } from '../helpers/test-databases';
import { answerRationales } from '../fixtures/workflows/safety-training/definition.server';
import { POLICY_VERSION } from '../fixtures/workflows/safety-training/definition';
import {
  bearer,
  errorCode,
  newContext,
  openSession,
  openTaskApp,
  TEST_PORTAL_ORIGIN,
  TEST_SECRETS,
  type TaskApp,
} from '../helpers/task-app';
import { testWorkflows } from '../helpers/test-workflows';

describe('security headers', () => {
  let t: TaskApp;
  let page: string;
  beforeAll(async () => {
    page = mkdtempSync(join(tmpdir(), 'ptk-page-'));
    mkdirSync(join(page, 'assets'));
    writeFileSync(join(page, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(page, 'assets', 'index-abc.js'), 'console.log(1)');
    t = await openTaskApp({ pageDirectory: page });
  });
  afterAll(async () => {
    await t.close();
    rmSync(page, { recursive: true, force: true });
  });

  it.each(['/', '/assets/index-abc.js', '/api/task'])('%s lets only PORTAL_ORIGINS frame it and sends no Referer', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain(`frame-ancestors ${TEST_PORTAL_ORIGIN}`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(response.headers['x-frame-options']).toBeUndefined();
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
  });

  it('serves the page for the task and preview routes, and never caches API answers', async () => {
    const index = await t.app.inject({ method: 'GET', url: '/?wxWorkerUuid=x' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    // With a real credential the preview portal is off unless PREVIEW_ENABLED=true (packages/kit-tests/integration/preview.test.ts).
    expect((await t.app.inject({ method: 'GET', url: '/preview/anything' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/task' })).headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/assets/index-abc.js' })).headers['cache-control']).toContain('immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/nope.js' });
    expect([missing.statusCode, errorCode(missing)]).toEqual([404, 'not_found']);
  });
});

const platformAddresses = {
  WX_AUTH_URL: 'http://127.0.0.1:9/auth',
  WX_BASE_URL: 'http://127.0.0.1:9/base',
  WX_TASK_BASE_URL: 'http://127.0.0.1:9/task',
  PORTAL_ORIGINS: TEST_PORTAL_ORIGIN,
};

describe('rate limits', () => {
  let t: TaskApp | undefined;
  afterEach(async () => {
    await t?.close();
  });

  it('limits requests per session with 429 rate_limited and Retry-After', async () => {
    t = await openTaskApp({ rateLimits: { perAddress: 1000, perTask: 5, windowMs: 60_000 } });
    const session = await openSession(t.app);
    const codes: number[] = [];
    for (let i = 0; i < 6; i += 1)
      codes.push((await t.app.inject({ method: 'GET', url: '/api/task', headers: bearer(session.token) })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await t.app.inject({ method: 'GET', url: '/api/task', headers: bearer(session.token) });
    expect(errorCode(limited)).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another task from the same address is not affected.
    const other = await openSession(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/task', headers: bearer(other.token) })).statusCode).toBe(200);
  });

  it("cannot be drained by a stranger who knows the task's context: each session has its own limit", async () => {
    t = await openTaskApp({ rateLimits: { perAddress: 1000, perTask: 3, windowMs: 60_000 } });
    const worker = await openSession(t.app);
    // The context is not signed (docs/platform.md#partner-task-configuration): anyone can open sessions for it and spend theirs.
    for (let i = 0; i < 5; i += 1) {
      const stranger = await t.app.inject({ method: 'POST', url: '/api/session', payload: worker.context, remoteAddress: '198.51.100.9' });
      expect(stranger.statusCode).toBe(200);
      const { token } = stranger.json<{ token: string }>();
      for (let j = 0; j < 4; j += 1)
        await t.app.inject({ method: 'GET', url: '/api/task', headers: bearer(token), remoteAddress: '198.51.100.9' });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/task', headers: bearer(worker.token) })).statusCode).toBe(200);
  });

  it('bounds new tasks per address, and per company counting only tasks the platform confirmed, saying when to retry', async () => {
    t = await openTaskApp({ env: { NEW_TASKS_PER_ADDRESS_PER_HOUR: '3', NEW_TASKS_PER_COMPANY_PER_HOUR: '5' } });
    const company = newContext().wxCompanyUuid;
    const open = (address: string, context = { ...newContext(), wxCompanyUuid: company }) =>
      t!.app.inject({ method: 'POST', url: '/api/session', payload: context, remoteAddress: address });
    const first = { ...newContext(), wxCompanyUuid: company };
    const statuses = [(await open('203.0.113.1', first)).statusCode];
    t.clock.advance(10 * 60_000);
    for (let i = 0; i < 2; i += 1) statuses.push((await open('203.0.113.1')).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await open('203.0.113.1');
    // The first of the three leaves the hour's window 50 minutes from now.
    expect([limited.statusCode, errorCode(limited), limited.headers['retry-after']]).toEqual([429, 'rate_limited', '3000']);
    // Reopening an existing task creates nothing, so it is not limited.
    expect((await open('203.0.113.1', first)).statusCode).toBe(200);
    // Tasks the platform has not confirmed (invented ones among them) leave the company's budget alone: 6 tasks open.
    for (const address of ['203.0.113.2', '203.0.113.3', '203.0.113.4']) expect((await open(address)).statusCode).toBe(200);
    const { db } = t.database.store;
    const ids = (await db.selectFrom('tasks').select('id').execute()).map((row) => row.id);
    expect(ids).toHaveLength(6);
    await confirmTasks(db, ids, t.clock.now());
    // Confirmed, they use it up: the seventh is refused, for this company, until the oldest leaves the window.
    const seventh = await open('203.0.113.5');
    expect([seventh.statusCode, seventh.json().error.message, seventh.headers['retry-after']]).toEqual([
      429,
      expect.stringMatching(/for this company/),
      '3000',
    ]);
    // An hour later both bounds have room again.
    t.clock.advance(60 * 60_000 + 1);
    expect((await open('203.0.113.1')).statusCode).toBe(200);
  });

  it("cannot be locked out of a company's new tasks by invented tasks from 34 addresses at the default limits", async () => {
    t = await openTaskApp();
    const company = newContext().wxCompanyUuid;
    const open = (address: string) =>
      t!.app.inject({ method: 'POST', url: '/api/session', payload: { ...newContext(), wxCompanyUuid: company }, remoteAddress: address });
    // 34 x 60 = 2,040 invented tasks: more than the company's 2,000 an hour, none of them confirmed by the platform.
    for (let address = 1; address <= 34; address += 1) {
      const statuses = new Set<number>();
      for (let task = 0; task < 60; task += 1) statuses.add((await open(`198.18.0.${address}`)).statusCode);
      expect(statuses).toEqual(new Set([200]));
      const refused = await open(`198.18.0.${address}`);
      expect([refused.statusCode, refused.headers['retry-after']]).toEqual([429, '3600']);
    }
    expect((await open('203.0.113.77')).statusCode).toBe(200);
  }, 120_000);

  it('takes the client address from X-Forwarded-For only from a trusted proxy (TRUST_PROXY)', async () => {
    t = await openTaskApp({ rateLimits: { perAddress: 2, perTask: 100, windowMs: 60_000 }, env: { TRUST_PROXY: '1' } });
    const through = (client: string) =>
      t!.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: {},
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': client },
      });
    // Two workers behind one proxy each have their own bucket.
    expect([(await through('198.51.100.1')).statusCode, (await through('198.51.100.1')).statusCode]).toEqual([400, 400]);
    expect((await through('198.51.100.1')).statusCode).toBe(429);
    expect((await through('198.51.100.2')).statusCode).toBe(400);
    await t.close();
    // Without it, the header is ignored: everyone behind the proxy is one address.
    t = await openTaskApp({ rateLimits: { perAddress: 2, perTask: 100, windowMs: 60_000 } });
    await through('198.51.100.1');
    await through('198.51.100.2');
    expect((await through('198.51.100.3')).statusCode).toBe(429);
  });

  it('shares the limits between two instances on one Postgres database', async () => {
    const database = await testDatabases[1]!.open();
    const other = await database.openStore();
    const apps = await Promise.all(
      [database.store, other].map(async (store) => {
        const parsed = parseConfig({ ...TEST_SECRETS, ...platformAddresses });
        if (!parsed.ok) throw new Error(parsed.problems.join('; '));
        const app = await buildApp({
          workflows: testWorkflows,
          config: parsed.config,
          clock: systemClock,
          store,
          metrics: new Registry(),
          onUpdateEnqueued: () => {},
          taskOptions: { rateLimits: { perAddress: 4, perTask: 100, windowMs: 60_000 }, pageDirectory: false },
        });
        await app.ready();
        return app;
      }),
    );
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const app = apps[i % 2]!;
        statuses.push((await app.inject({ method: 'POST', url: '/api/session', payload: {}, remoteAddress: '203.0.113.77' })).statusCode);
      }
      // Four requests in all, not four per instance.
      expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await database.cleanup();
    }
  });

  it('limits requests per client address, whatever the task', async () => {
    t = await openTaskApp({ rateLimits: { perAddress: 3, perTask: 100, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await t.app.inject({ method: 'POST', url: '/api/session', payload: {}, remoteAddress: '203.0.113.7' })).statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    const elsewhere = await t.app.inject({ method: 'POST', url: '/api/session', payload: {}, remoteAddress: '203.0.113.8' });
    expect(elsewhere.statusCode).toBe(400);
  });
});

describe('secrets: none in any answer', () => {
  it('never returns the configured key, secret, session secret or a quiz answer rationale in any API answer', async () => {
    const t = await openTaskApp();
    try {
      const bodies: string[] = [];
      const session = await openSession(t.app);
      bodies.push(JSON.stringify(session));
      const headers = bearer(session.token);
      const calls: [string, string, unknown][] = [
        ['POST', '/api/task/start', {}],
        ['POST', '/api/task/steps/welcome', { data: {} }],
        ['POST', '/api/task/steps/policy', { data: { acknowledged: true, policyVersion: POLICY_VERSION } }],
        ['POST', '/api/task/steps/quiz', { data: { answers: { exits: 'a', spill: 'b', ppe: 'a', injury: 'b', lifting: 'a' } } }],
        ['POST', '/api/task/steps/quiz', { data: { answers: { exits: 'b', spill: 'a', ppe: 'c', injury: 'a', lifting: 'b' } } }],
        ['POST', '/api/task/steps/signature', { data: { fullName: 'Ana', confirmed: true } }],
        ['GET', '/api/task', undefined],
        ['GET', '/api/task/updates', undefined],
        ['POST', '/api/task/restart', {}],
        ['POST', '/api/task/steps/quiz', { data: {} }],
        ['GET', '/api/task', { junk: true }],
      ];
      for (const [method, url, payload] of calls) {
        const response = await t.app.inject({
          method: method as 'GET' | 'POST',
          url,
          headers,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        bodies.push(response.body, JSON.stringify(response.headers));
      }
      const everything = bodies.join('\n');
      for (const secret of [...Object.values(TEST_SECRETS), ...answerRationales]) expect(everything).not.toContain(secret);
      expect(everything).not.toMatch(/"correct"|answerKey/);
    } finally {
      await t.close();
    }
  });
});
