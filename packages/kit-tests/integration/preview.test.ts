import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claimDeliverable, markDead, scheduleRetry } from '@partner-task-kit/server/store/outbox.repository';
import { previewConfigSchema } from '@partner-task-kit/workflow/contract/preview-config';
import { taskUpdatesResponseSchema } from '@partner-task-kit/workflow/contract/task-updates';
import { testWorkflows } from '../helpers/test-workflows';
import { bearer, openSession, openTaskApp, TEST_PORTAL_ORIGIN, type TaskApp, type TaskAppOptions } from '../helpers/task-app';

/** The preview portal is on by default in emulator mode only; with a real credential it must be asked for. */
const emulatorMode = { WX_API_KEY: '', WX_API_SECRET: '' };

describe('the preview portal switch', () => {
  let page: string;
  let t: TaskApp | undefined;
  beforeAll(() => {
    page = mkdtempSync(join(tmpdir(), 'ptk-page-'));
    writeFileSync(join(page, 'index.html'), '<!doctype html><title>t</title>');
  });
  afterAll(() => rmSync(page, { recursive: true, force: true }));
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const open = async (env: TaskAppOptions['env']) => (t = await openTaskApp({ pageDirectory: page, env }));

  it('is off with a real credential unless PREVIEW_ENABLED=true: no page, no API, no extra framing right', async () => {
    const { app } = await open({});
    expect((await app.inject({ method: 'GET', url: '/preview' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/preview' })).statusCode).toBe(404);
    const csp = String((await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(csp).toMatch(new RegExp(`frame-ancestors ${TEST_PORTAL_ORIGIN}$`));
    expect(csp).not.toContain('frame-src');
  });

  it('with PREVIEW_ENABLED=true and a real credential says platform mode and offers no emulator', async () => {
    const served = '0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b';
    const { app } = await open({ PREVIEW_ENABLED: 'true', WX_COMPANY_UUIDS: served.toUpperCase() });
    expect((await app.inject({ method: 'GET', url: '/preview/tasks/x' })).statusCode).toBe(200);
    const config = previewConfigSchema.parse((await app.inject({ method: 'GET', url: '/api/preview' })).json());
    expect(config).toEqual({
      mode: 'platform',
      endEvent: { name: 'partner-task-complete', format: 'string' },
      emulatorControlPath: null,
      // Every registered workflow, so that adding one (npm run new-workflow) needs no change here.
      workflows: testWorkflows.list().map((workflow) => ({
        id: workflow.id,
        title: workflow.title,
        steps: workflow.steps.length,
        estimatedMinutes: workflow.estimatedMinutes,
      })),
      defaultWorkflow: 'safety-training',
      // The launch form offers the companies the server acts for, so a launch is not refused by surprise.
      companies: [served],
    });
    expect(config.workflows).toEqual(
      expect.arrayContaining([
        { id: 'safety-training', title: 'Workplace safety training', steps: 4, estimatedMinutes: 10 },
        { id: 'availability', title: 'Availability and preferences', steps: 3, estimatedMinutes: 3 },
      ]),
    );
    expect((await app.inject({ method: 'GET', url: '/emulator/control/assignments' })).statusCode).toBe(404);
  });

  it('lets the preview at localhost frame the task page at 127.0.0.1 beside PORTAL_ORIGINS', async () => {
    const { app } = await open({ PREVIEW_ENABLED: 'true', PORT: '8787' });
    const csp = String((await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(csp).toContain(`frame-ancestors ${TEST_PORTAL_ORIGIN} http://localhost:8787 http://127.0.0.1:8787;`);
    expect(csp).toContain("frame-src 'self'");
  });

  it('is on by default in emulator mode and points at the control API', async () => {
    const { app } = await open(emulatorMode);
    const config = previewConfigSchema.parse((await app.inject({ method: 'GET', url: '/api/preview' })).json());
    expect(config).toMatchObject({ mode: 'emulator', emulatorControlPath: '/emulator/control' });
  });

  it('can be turned off in emulator mode', async () => {
    const { app } = await open({ ...emulatorMode, PREVIEW_ENABLED: 'false' });
    expect((await app.inject({ method: 'GET', url: '/api/preview' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/preview' })).statusCode).toBe(404);
  });
});

describe('the delivery view of GET /api/task/updates', () => {
  let t: TaskApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** One task with two updates: the first a dead letter, the second retried once. */
  async function failedUpdates(env: TaskAppOptions['env']) {
    t = await openTaskApp({ env });
    const session = await openSession(t.app);
    await t.app.inject({ method: 'POST', url: '/api/task/start', headers: bearer(session.token), payload: {} });
    const now = t.clock.now();
    const db = t.database.store.db;
    const claim = async () => (await claimDeliverable(db, { now, leaseMs: 1000, limit: 1, workerId: 'w' }))[0]!;
    await markDead(db, (await claim()).id, { workerId: 'w', now, reason: 'rejected (HTTP 400): bad label' });
    await scheduleRetry(db, (await claim()).id, { workerId: 'w', nextAttemptAt: now + 4000, error: 'retryable: HTTP 503' });
    const response = await t.app.inject({ method: 'GET', url: '/api/task/updates', headers: bearer(session.token) });
    return { now, updates: taskUpdatesResponseSchema.parse(response.json()).updates };
  }

  it('shows the next attempt time, the last error and the dead reason where the preview is enabled', async () => {
    const { now, updates } = await failedUpdates({ PREVIEW_ENABLED: 'true' });
    expect(updates.map((update) => update.delivery)).toEqual([
      expect.objectContaining({ state: 'dead', nextAttemptAt: null, deadReason: 'rejected (HTTP 400): bad label' }),
      {
        state: 'pending',
        attempts: 1,
        deliveredAt: null,
        nextAttemptAt: new Date(now + 4000).toISOString(),
        lastError: 'retryable: HTTP 503',
        deadReason: null,
      },
    ]);
  });

  it('keeps upstream error texts out of the answer where the preview is off', async () => {
    const { updates } = await failedUpdates({});
    expect(updates.map((update) => [update.delivery.state, update.delivery.lastError, update.delivery.deadReason])).toEqual([
      ['dead', null, null],
      ['pending', null, null],
    ]);
  });
});
