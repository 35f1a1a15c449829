import { afterEach, describe, expect, it } from 'vitest';
import { listUpdatesForTask } from '@partner-task-kit/server/store/outbox-status.repository';
import { findTaskByAssignedTaskUuid } from '@partner-task-kit/server/store/tasks.repository';
import type { TaskServiceDeps } from '@partner-task-kit/server/task-progress/locked-task';
import { resolveAwaitedStep } from '@partner-task-kit/server/task-progress/partner-step.service';
import type { ApiError } from '@partner-task-kit/server/api-error';
import { bearer, errorCode, newContext, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { sensitiveKeyRingOf } from '@partner-task-kit/server/sensitive/sensitive-keys';
import { testWorkflows } from '../helpers/test-workflows';

let t: TaskApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The services as the partner API calls them, on the app's own database and clock. */
function servicesOf(app: TaskApp): TaskServiceDeps {
  return {
    store: app.database.store,
    clock: app.clock,
    partnerUrlTemplate: undefined,
    onUpdateEnqueued: () => {},
    companies: { serves: () => true },
    newTaskLimits: { perAddressPerHour: 0, perCompanyPerHour: 0 },
    sensitiveKeys: sensitiveKeyRingOf({ sensitiveKeys: { keys: [{ kid: 'test', key: new Uint8Array(32) }] } }),
    log: { warn: () => {} },
    workflows: testWorkflows,
  };
}

describe.each(testDatabases)('steps the partner completes, on $name', (engine) => {
  /** A worker on background-check who has consented: the task now waits on the partner's check. */
  async function consented() {
    t = await openTaskApp({ engine });
    const context = { ...newContext() };
    const session = await t.app.inject({ method: 'POST', url: '/api/session', payload: { ...context, workflow: 'background-check' } });
    expect(session.statusCode).toBe(200);
    const { token } = session.json<{ token: string }>();
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/task/steps/consent',
      headers: bearer(token),
      payload: { data: { fullName: 'Ana López', agree: true } },
    });
    expect(saved.statusCode).toBe(200);
    return { app: t, context, token, view: saved.json<{ task: { currentStep: string; workflow: { steps: unknown[] } } }>().task };
  }

  const platformUpdates = async (app: TaskApp, assignedTaskUuid: string) => {
    const task = await findTaskByAssignedTaskUuid(app.database.store.db, assignedTaskUuid);
    return (await listUpdatesForTask(app.database.store.db, task!.id)).map((update) => update.payload);
  };

  it('waits on the partner: the page sees a partner step it cannot submit, the platform sees the check under way', async () => {
    const { app, context, token, view } = await consented();
    expect(view.currentStep).toBe('check');
    expect(view.workflow.steps).toEqual([{ id: 'consent' }, { id: 'check', completedBy: 'partner' }]);
    const byWorker = await app.app.inject({
      method: 'POST',
      url: '/api/task/steps/check',
      headers: bearer(token),
      payload: { data: { result: 'passed' } },
    });
    expect([byWorker.statusCode, errorCode(byWorker)]).toEqual([409, 'step_out_of_order']);
    const last = (await platformUpdates(app, context.wxAssignedTaskUuid)).at(-1);
    expect(last).toMatchObject({
      taskStatus: 'inProgress',
      partnerStatus: { label: 'Step 2 of 2 · Check', color: 'warning', details: expect.stringContaining('under way at the partner') },
    });
  });

  it('completes the task when the partner reports passed: one update, completed', async () => {
    const { app, context, token } = await consented();
    const before = (await platformUpdates(app, context.wxAssignedTaskUuid)).length;
    const outcome = await resolveAwaitedStep(servicesOf(app), {
      assignedTaskUuid: context.wxAssignedTaskUuid.toUpperCase(),
      stepId: 'check',
      data: { result: 'passed' },
    });
    expect(outcome).toMatchObject({ ended: true, task: { status: 'completed', currentStep: null } });
    const updates = await platformUpdates(app, context.wxAssignedTaskUuid);
    expect(updates.slice(before)).toEqual([expect.objectContaining({ taskStatus: 'completed' })]);
    // The worker who comes back finds the task where it is.
    const seen = await app.app.inject({ method: 'GET', url: '/api/task', headers: bearer(token) });
    expect(seen.json()).toMatchObject({ status: 'completed', stepData: { consent: { fullName: 'Ana López', agree: true } } });
    // The partner's data is for the platform's admins (its `details`): the page is not sent it.
    expect(seen.json<{ stepData: Record<string, unknown> }>().stepData).not.toHaveProperty('check');
  });

  it('ends the task in error when the partner reports failed, with the details for the admin', async () => {
    const { app, context } = await consented();
    const outcome = await resolveAwaitedStep(servicesOf(app), {
      assignedTaskUuid: context.wxAssignedTaskUuid,
      stepId: 'check',
      data: { result: 'failed', details: 'A record needs a conversation.' },
    });
    expect(outcome.task).toMatchObject({ status: 'error', failure: { reason: 'partner_failed', stepId: 'check' } });
    expect((await platformUpdates(app, context.wxAssignedTaskUuid)).at(-1)).toMatchObject({
      taskStatus: 'error',
      partnerStatus: { color: 'danger', details: expect.stringContaining('A record needs a conversation.') },
    });
  });

  it('refuses data the step does not take, another company, and a step no longer awaited after a restart', async () => {
    const { app, context, token } = await consented();
    const deps = servicesOf(app);
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => 'resolved',
        (error: ApiError) => [error.code, error.field],
      );
    expect(
      await refusal(resolveAwaitedStep(deps, { assignedTaskUuid: context.wxAssignedTaskUuid, stepId: 'check', data: { result: 'maybe' } })),
    ).toEqual(['invalid_step_data', 'data.result']);
    const elsewhere = {
      assignedTaskUuid: context.wxAssignedTaskUuid,
      stepId: 'check',
      data: { result: 'passed' },
      companies: new Set(['00000000-0000-4000-8000-000000000000']),
    };
    expect(await refusal(resolveAwaitedStep(deps, elsewhere))).toEqual(['task_not_found', 'assignedTaskUuid']);
    expect(
      await refusal(resolveAwaitedStep(deps, { ...elsewhere, assignedTaskUuid: newContext().wxAssignedTaskUuid, companies: undefined })),
    ).toEqual(['task_not_found', 'assignedTaskUuid']);
    expect((await app.app.inject({ method: 'POST', url: '/api/task/restart', headers: bearer(token), payload: {} })).statusCode).toBe(200);
    expect(
      await refusal(
        resolveAwaitedStep(deps, { assignedTaskUuid: context.wxAssignedTaskUuid, stepId: 'check', data: { result: 'passed' } }),
      ),
    ).toEqual(['step_not_awaiting_partner', 'stepId']);
  });
});
