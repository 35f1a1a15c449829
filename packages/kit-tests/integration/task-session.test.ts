import { listUpdatesForTask } from '@partner-task-kit/server/store/outbox-status.repository';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionResponseSchema } from '@partner-task-kit/workflow/contract/session';
import { bearer, errorCode, newContext, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';

describe('POST /api/session', () => {
  let t: TaskApp;
  beforeEach(async () => {
    t = await openTaskApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('creates the task on first open, answers the contract shape and enqueues ready "Opened"', async () => {
    const context = newContext();
    const response = await t.app.inject({ method: 'POST', url: '/api/session', payload: context });
    expect(response.statusCode).toBe(200);
    const session = sessionResponseSchema.parse(response.json());
    expect(session.task).toMatchObject({
      assignedTaskUuid: context.wxAssignedTaskUuid,
      status: 'ready',
      attempt: 1,
      started: false,
      currentStep: 'welcome',
    });
    expect(session.environment).toEqual({ emulator: false });
    expect(Date.parse(session.expiresAt)).toBe(t.clock.now() + 15 * 60 * 1000);
    expect(t.wakes()).toBe(1);

    const updates = await t.app.inject({ method: 'GET', url: '/api/task/updates', headers: bearer(session.token) });
    expect(updates.json().updates).toEqual([
      expect.objectContaining({
        record: expect.objectContaining({
          taskStatus: 'ready',
          partnerId: session.task.id,
          partnerStatus: expect.objectContaining({ label: 'Opened' }),
        }),
        delivery: {
          state: 'pending',
          attempts: 0,
          deliveredAt: null,
          nextAttemptAt: new Date(t.clock.now()).toISOString(),
          lastError: null,
          deadReason: null,
        },
      }),
    ]);
  });

  it('loads the same task on a second open without sending ready again', async () => {
    const first = await openSession(t.app);
    const second = await openSession(t.app, first.context);
    expect(second.task.id).toBe(first.task.id);
    const updates = await t.app.inject({ method: 'GET', url: '/api/task/updates', headers: bearer(second.token) });
    expect(updates.json().updates).toHaveLength(1);
    expect(t.wakes()).toBe(1);
  });

  it('keeps the assigned task id exactly as received, so its updates name the task as the platform does', async () => {
    const context = newContext();
    const upper = { ...context, wxAssignedTaskUuid: context.wxAssignedTaskUuid.toUpperCase() };
    const session = await openSession(t.app, upper);
    expect(session.task.assignedTaskUuid).toBe(upper.wxAssignedTaskUuid);
    const [opened] = await listUpdatesForTask(t.database.store.db, session.task.id);
    expect(opened?.assignedTaskUuid).toBe(upper.wxAssignedTaskUuid);
  });

  it('refuses to reopen an assigned task with another worker, flow or company (409 context_mismatch)', async () => {
    const first = await openSession(t.app);
    for (const field of ['wxWorkerUuid', 'wxTaskFlowUuid', 'wxCompanyUuid'] as const) {
      const payload = { ...first.context, [field]: newContext()[field] };
      const response = await t.app.inject({ method: 'POST', url: '/api/session', payload });
      expect(response.statusCode).toBe(409);
      expect(errorCode(response)).toBe('context_mismatch');
    }
  });

  it.each([
    ['a missing parameter', (c: Record<string, string>) => ({ ...c, wxCompanyUuid: undefined }), 'wxCompanyUuid'],
    ['a value that is not a UUID', (c: Record<string, string>) => ({ ...c, wxWorkerUuid: 'not-a-uuid' }), 'wxWorkerUuid'],
    ['an unexpected field', (c: Record<string, string>) => ({ ...c, isAdmin: true }), 'body'],
    ['a number instead of a string', (c: Record<string, string>) => ({ ...c, wxTaskFlowUuid: 42 }), 'wxTaskFlowUuid'],
  ])('answers 400 invalid_context naming the field for %s', async (_name, change, field) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/session', payload: change(newContext()) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_context', field });
  });

  it.each([
    ['an array', '[]', 400, 'invalid_context'],
    ['null', 'null', 400, 'invalid_context'],
    ['malformed JSON', '{"wxWorkerUuid":', 400, 'invalid_json'],
  ])('answers a 4xx with a code for %s', async (_name, payload, status, code) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'application/json' }, payload });
    expect(response.statusCode).toBe(status);
    expect(errorCode(response)).toBe(code);
  });

  it('refuses a body over the API limit with 413 body_too_large', async () => {
    const payload = { ...newContext(), padding: 'x'.repeat(20_000) };
    const response = await t.app.inject({ method: 'POST', url: '/api/session', payload });
    expect(response.statusCode).toBe(413);
    expect(errorCode(response)).toBe('body_too_large');
  });

  it('creates one task when two first opens race', async () => {
    const context = newContext();
    const [a, b] = await Promise.all([openSession(t.app, context), openSession(t.app, context)]);
    expect(a.task.id).toBe(b.task.id);
    const updates = await t.app.inject({ method: 'GET', url: '/api/task/updates', headers: bearer(a.token) });
    expect(updates.json().updates).toHaveLength(1);
  });
});
