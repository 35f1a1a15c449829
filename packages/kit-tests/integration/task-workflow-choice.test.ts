import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { partnerTaskUpdateSchema } from '@partner-task-kit/workflow/contract/partner-task-update';
import { sessionResponseSchema } from '@partner-task-kit/workflow/contract/session';
import { stepResultSchema } from '@partner-task-kit/workflow/contract/step-submission';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { taskUpdatesResponseSchema } from '@partner-task-kit/workflow/contract/task-updates';
import { addYears, localDay } from '../fixtures/workflows/availability/definition.start-date';
import { testWorkflows } from '../helpers/test-workflows';
import { testDatabases } from '../helpers/test-databases';
import { bearer, errorCode, newContext, openTaskApp, TEST_PORTAL_ORIGIN, type TaskApp } from '../helpers/task-app';

/**
 * The availability workflow's start date is checked against the real clock (the engine gives schemas none; see its
 * definition.ts), not the app's manual one: these dates are relative to today.
 */
const today = localDay(new Date());
const inAWeek = localDay(new Date(Date.now() + 7 * 86_400_000));

describe.each(testDatabases)('choosing the workflow with POST /api/session on $name', (engine) => {
  let t: TaskApp;
  beforeEach(async () => {
    t = await openTaskApp({ engine });
  });
  afterEach(async () => {
    await t.close();
  });

  const open = (context: TaskContext, workflow?: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/session', payload: workflow === undefined ? context : { ...context, workflow } });
  const session = async (context: TaskContext, workflow?: string) => {
    const response = await open(context, workflow);
    expect(response.statusCode, response.body).toBe(200);
    return sessionResponseSchema.parse(response.json());
  };

  it('runs the default workflow, the safety training, when the link names none', async () => {
    const { task } = await session(newContext());
    expect(task.workflow.id).toBe('safety-training');
    expect(task.currentStep).toBe('welcome');
  });

  it('runs the workflow the link names', async () => {
    const { task } = await session(newContext(), 'availability');
    expect(task.workflow).toEqual({
      id: 'availability',
      estimatedMinutes: 3,
      steps: [{ id: 'start' }, { id: 'shifts' }, { id: 'hours' }],
      longestPath: 3,
    });
    expect(task.currentStep).toBe('start');
  });

  it('refuses a workflow this server does not offer with 400 unknown_workflow, storing and sending nothing', async () => {
    const context = newContext();
    const response = await open(context, 'onboarding-v2');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'unknown_workflow',
        message: expect.stringContaining('"onboarding-v2"'),
        field: 'workflow',
      },
    });
    // Every registered workflow is offered, the examples and any added beside them.
    const offered = testWorkflows.list().map((workflow) => workflow.id);
    expect(response.json().error.message).toContain(`(it offers: ${offered.join(', ')})`);
    expect(t.wakes()).toBe(0);
    // Nothing was stored: the same task opens afterwards with the workflow the corrected link names.
    expect((await session(context, 'availability')).task.workflow.id).toBe('availability');
  });

  it.each([
    ['a number', 42],
    ['null', null],
  ])('refuses a workflow that is %s as invalid_context naming the field', async (_name, workflow) => {
    const response = await open(newContext(), workflow);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_context', field: 'workflow' });
  });

  it('keeps the stored workflow when the task is opened again, whatever the link names now', async () => {
    const context = newContext();
    const first = await session(context, 'availability');
    const again = await session(context, 'safety-training');
    expect(again.task.id).toBe(first.task.id);
    expect(again.task.workflow.id).toBe('availability');
    expect((await session(context)).task.workflow.id).toBe('availability');

    const other = newContext();
    await session(other);
    expect((await session(other, 'availability')).task.workflow.id).toBe('safety-training');
    // Opened again, nothing new is sent: one `ready` per task.
    expect(t.wakes()).toBe(2);
  });

  it('keeps the workflow through a restart (spec 3: the same parameters)', async () => {
    const { token } = await session(newContext(), 'availability');
    const headers = bearer(token);
    await t.app.inject({ method: 'POST', url: '/api/task/steps/start', headers, payload: { data: { startDate: inAWeek } } });
    const restarted = await t.app.inject({ method: 'POST', url: '/api/task/restart', headers, payload: {} });
    expect(restarted.json()).toMatchObject({ workflow: { id: 'availability' }, currentStep: 'start', attempt: 2 });
  });

  it('still refuses an unknown workflow for a task that exists: the link is broken, and its owner should hear of it', async () => {
    const context = newContext();
    await session(context, 'availability');
    const response = await open(context, 'availabilty');
    expect(response.statusCode).toBe(400);
    expect(errorCode(response)).toBe('unknown_workflow');
  });
});

describe.each(testDatabases)('the availability workflow through the API on $name', (engine) => {
  let t: TaskApp;
  let headers: Record<string, string>;
  beforeEach(async () => {
    t = await openTaskApp({ engine });
    const response = await t.app.inject({ method: 'POST', url: '/api/session', payload: { ...newContext(), workflow: 'availability' } });
    headers = bearer(sessionResponseSchema.parse(response.json()).token);
  });
  afterEach(async () => {
    await t.close();
  });

  const step = (id: string, data: unknown) => t.app.inject({ method: 'POST', url: `/api/task/steps/${id}`, headers, payload: { data } });
  const refusal = async (id: string, data: unknown) => {
    const response = await step(id, data);
    expect(response.statusCode).toBe(400);
    return response.json().error as { code: string; field: string };
  };

  it('validates every step on the server, conditional questions included, and completes on the last', async () => {
    expect(await refusal('start', { startDate: '2020-01-01' })).toMatchObject({ code: 'invalid_step_data', field: 'data.startDate' });
    expect(await refusal('start', { startDate: addYears(today, 2) })).toMatchObject({ field: 'data.startDate' });
    expect((await step('start', { startDate: today })).statusCode).toBe(200);

    expect(await refusal('shifts', { shifts: [] })).toMatchObject({ code: 'invalid_step_data', field: 'data.shifts' });
    expect(await refusal('shifts', { shifts: ['night'] })).toMatchObject({ field: 'data.transportAfterMidnight' });
    expect(await refusal('shifts', { shifts: ['weekend'] })).toMatchObject({ field: 'data.weekendsPerMonth' });
    expect(await refusal('shifts', { shifts: ['morning'], weekendsPerMonth: 2 })).toMatchObject({ field: 'data.weekendsPerMonth' });
    const shifts = await step('shifts', { shifts: ['morning', 'night', 'weekend'], transportAfterMidnight: false, weekendsPerMonth: 2 });
    expect(shifts.statusCode).toBe(200);

    expect(await refusal('hours', { maxWeeklyHours: 61 })).toMatchObject({ field: 'data.maxWeeklyHours' });
    expect(await refusal('hours', { maxWeeklyHours: 30, note: 'x'.repeat(501) })).toMatchObject({ field: 'data.note' });
    const done = await step('hours', { maxWeeklyHours: 30, note: '  No Mondays, please.  ' });
    expect(done.statusCode).toBe(200);
    const result = stepResultSchema.parse(done.json());
    expect(result.task).toMatchObject({ status: 'completed', currentStep: null });
    expect(result.task.stepData).toMatchObject({
      start: { startDate: today },
      shifts: { shifts: ['morning', 'night', 'weekend'], transportAfterMidnight: false, weekendsPerMonth: 2 },
      hours: { maxWeeklyHours: 30, note: 'No Mondays, please.' },
    });
    expect(result.endEvent).toEqual({ name: 'partner-task-complete', format: 'string', targetOrigins: [TEST_PORTAL_ORIGIN] });

    const raw = (await t.app.inject({ method: 'GET', url: '/api/task/updates', headers })).json() as { updates: { record: unknown }[] };
    for (const { record } of raw.updates) expect(partnerTaskUpdateSchema.safeParse(record).error?.issues).toBeUndefined();
    const updates = taskUpdatesResponseSchema.parse(raw).updates;
    expect(
      updates.map((update) => [update.record.taskStatus, update.record.partnerStatus?.label, update.record.partnerStatus?.details]),
    ).toEqual([
      ['ready', 'Opened', 'The worker opened the task.'],
      ['inProgress', 'Step 2 of 3 · Shifts', `The worker can start on ${today}. Now on step 2 of 3 (Shifts).`],
      [
        'inProgress',
        'Step 3 of 3 · Hours',
        'Shifts: mornings, nights (transport home after midnight: no), weekends (2 a month). Now on step 3 of 3 (Hours).',
      ],
      ['completed', 'Completed', 'Availability complete: at most 30 hours a week; the worker added a note.'],
    ]);
  });

  it('accepts only the current step, as for any workflow', async () => {
    const response = await step('hours', { maxWeeklyHours: 30 });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('step_out_of_order');
  });
});
