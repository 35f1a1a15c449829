import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { labelLength, partnerTaskUpdateSchema, PARTNER_LABEL_MAX } from '@partner-task-kit/workflow/contract/partner-task-update';
import { stepResultSchema } from '@partner-task-kit/workflow/contract/step-submission';
import { taskUpdatesResponseSchema } from '@partner-task-kit/workflow/contract/task-updates';
import { POLICY_VERSION } from '../fixtures/workflows/safety-training/definition';
import { testDatabases } from '../helpers/test-databases';
import { bearer, errorCode, openSession, openTaskApp, TEST_PORTAL_ORIGIN, type TaskApp } from '../helpers/task-app';

const passing = { exits: 'b', spill: 'a', ppe: 'c', injury: 'a', lifting: 'b' };
const failing = { exits: 'a', spill: 'b', ppe: 'a', injury: 'b', lifting: 'a' };

describe.each(testDatabases)('the safety training through the API on $name', (engine) => {
  let t: TaskApp;
  let headers: Record<string, string>;
  let taskId: string;
  let assignedTaskUuid: string;
  beforeEach(async () => {
    t = await openTaskApp({ engine });
    const session = await openSession(t.app);
    headers = bearer(session.token);
    taskId = session.task.id;
    assignedTaskUuid = session.context.wxAssignedTaskUuid;
  });
  afterEach(async () => {
    await t.close();
  });

  const post = (url: string, payload: unknown = {}) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });
  const step = (id: string, data: unknown) => post(`/api/task/steps/${id}`, { data });
  const updates = async () =>
    taskUpdatesResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/task/updates', headers })).json()).updates;
  const summary = async () =>
    (await updates()).map((u) => [u.record.taskStatus, u.record.partnerStatus?.label, u.record.partnerStatus?.color]);

  it('runs from open to completed with one update per moment, in order, with increasing sentAt', async () => {
    expect((await post('/api/task/start')).statusCode).toBe(200);
    expect((await post('/api/task/start')).statusCode).toBe(200); // idempotent: no second inProgress
    expect((await step('welcome', {})).statusCode).toBe(200);
    expect((await step('policy', { acknowledged: true, policyVersion: POLICY_VERSION })).statusCode).toBe(200);
    const quiz = stepResultSchema.parse((await step('quiz', { answers: passing })).json());
    expect(quiz.grading).toEqual({ passed: true, score: 5, total: 5, passMark: 4, attemptsLeft: 0 });
    const done = await step('signature', { fullName: '  Ana López ', confirmed: true });
    expect(done.statusCode).toBe(200);
    const result = stepResultSchema.parse(done.json());
    expect(result.task).toMatchObject({ status: 'completed', currentStep: null });
    expect(result.endEvent).toEqual({ name: 'partner-task-complete', format: 'string', targetOrigins: [TEST_PORTAL_ORIGIN] });

    // docs/platform.md#partner-task-update-record: each record, as sent, passes the partner's strict schema. Checked on the raw JSON, apart from
    // `updates()`, whose response schema could be loosened for tooling without this check going with it.
    const raw = (await t.app.inject({ method: 'GET', url: '/api/task/updates', headers })).json() as { updates: { record: unknown }[] };
    expect(raw.updates).toHaveLength(6);
    for (const { record } of raw.updates) expect(partnerTaskUpdateSchema.safeParse(record).error?.issues).toBeUndefined();

    expect(await summary()).toEqual([
      ['ready', 'Opened', 'neutral'],
      ['inProgress', 'Step 1 of 4 · Welcome', 'neutral'],
      ['inProgress', 'Step 2 of 4 · Policy', 'neutral'],
      ['inProgress', 'Step 3 of 4 · Quiz', 'neutral'],
      ['inProgress', 'Step 4 of 4 · Signature', 'neutral'],
      ['completed', 'Completed', 'success'],
    ]);
    const all = await updates();
    for (const update of all) {
      expect(update.record.partnerId).toBe(taskId);
      expect(update.record.partnerUrl).toBe(`https://partner.example.com/tasks/${assignedTaskUuid}`);
      expect(labelLength(update.record.partnerStatus?.label ?? '')).toBeLessThanOrEqual(PARTNER_LABEL_MAX);
    }
    const sentAts = all.map((u) => Date.parse(u.record.sentAt));
    expect(sentAts).toEqual([...sentAts].sort((a, b) => a - b));
    expect(new Set(sentAts).size).toBe(sentAts.length);
    // The name as signed, trimmed: the quotes show no stray space survived.
    expect(all.at(-1)?.record.partnerStatus?.details).toContain('"Ana López"');
  });

  it('resumes at the saved step with the saved answers', async () => {
    await step('welcome', {});
    await step('policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    await step('quiz', { answers: failing });
    const view = (await t.app.inject({ method: 'GET', url: '/api/task', headers })).json();
    expect(view).toMatchObject({ currentStep: 'quiz', status: 'inProgress', started: true, gradedAttempts: { quiz: { used: 1, max: 3 } } });
    expect(view.stepData).toEqual({
      welcome: {},
      policy: { acknowledged: true, policyVersion: POLICY_VERSION },
      quiz: { answers: failing },
    });
  });

  it('sends one update for a first step saved without start: inProgress, on the step the worker is on now', async () => {
    await step('welcome', {});
    expect(await summary()).toEqual([
      ['ready', 'Opened', 'neutral'],
      ['inProgress', 'Step 2 of 4 · Policy', 'neutral'],
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/api/task', headers })).json()).toMatchObject({
      status: 'inProgress',
      started: true,
    });
  });

  it('says in the details of a saved step what was done and the step the label names', async () => {
    await step('welcome', {});
    await step('policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    const saved = (await updates()).slice(1).map((u) => [u.record.partnerStatus?.label, u.record.partnerStatus?.details]);
    expect(saved).toEqual([
      ['Step 2 of 4 · Policy', 'The worker read the introduction and began the training. Now on step 2 of 4 (Policy).'],
      ['Step 3 of 4 · Quiz', `Safety policy ${POLICY_VERSION} read and acknowledged. Now on step 3 of 4 (Quiz).`],
    ]);
  });

  it('ends in error with details for the admin when the quiz fails on every attempt', async () => {
    await step('welcome', {});
    await step('policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    const tries = [];
    for (let i = 0; i < 3; i += 1) tries.push(stepResultSchema.parse((await step('quiz', { answers: failing })).json()));
    expect(tries.map((r) => r.grading?.attemptsLeft)).toEqual([2, 1, 0]);
    expect(tries[2]?.task).toMatchObject({ status: 'error', currentStep: null, failure: { reason: 'attempts_exhausted', stepId: 'quiz' } });
    expect(tries[2]?.endEvent).toBeUndefined();
    expect(tries[2]?.task.history.slice(-4).map((entry) => [entry.kind, entry.stepId])).toEqual([
      ['graded_step_failed', 'quiz'],
      ['graded_step_failed', 'quiz'],
      ['graded_step_failed', 'quiz'],
      ['failed', 'quiz'],
    ]);
    const rows = await updates();
    expect(rows.slice(-3).map((u) => [u.record.taskStatus, u.record.partnerStatus?.label, u.record.partnerStatus?.color])).toEqual([
      ['inProgress', 'Step 3 of 4 · Quiz retry', 'warning'],
      ['inProgress', 'Step 3 of 4 · Quiz retry', 'warning'],
      ['error', 'Failed · Quiz', 'danger'],
    ]);
    expect(rows.at(-1)?.record.partnerStatus?.details).toMatch(
      /did not pass the quiz in 3 attempts \(scores 0\/5, 0\/5, 0\/5; pass mark 4\)/,
    );
    const after = await step('quiz', { answers: passing });
    expect([after.statusCode, errorCode(after)]).toEqual([409, 'task_closed']);
  });

  it('restarts after completion: a new attempt, ready sent, and the workflow runs again', async () => {
    await step('welcome', {});
    await step('policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    await step('quiz', { answers: passing });
    await step('signature', { fullName: 'Ana López', confirmed: true });
    const restarted = await post('/api/task/restart');
    expect(restarted.statusCode).toBe(200);
    expect(restarted.json()).toMatchObject({
      status: 'ready',
      attempt: 2,
      started: false,
      currentStep: 'welcome',
      stepData: {},
      failure: null,
    });
    expect((await summary()).at(-1)).toEqual(['ready', 'Restarted · attempt 2', 'neutral']);
    const again = await post('/api/task/restart');
    expect([again.statusCode, errorCode(again)]).toEqual([409, 'nothing_to_restart']);
    await post('/api/task/start');
    await step('welcome', {});
    expect((await summary()).slice(-2).map((row) => row[1])).toEqual(['Step 1 of 4 · Welcome', 'Step 2 of 4 · Policy']);
  });

  it('restarts a task in progress and after a failure', async () => {
    await step('welcome', {});
    expect((await post('/api/task/restart')).json()).toMatchObject({ attempt: 2, status: 'ready' });
    await step('welcome', {});
    await step('policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    for (let i = 0; i < 3; i += 1) await step('quiz', { answers: failing });
    const restarted = await post('/api/task/restart');
    expect(restarted.json()).toMatchObject({ attempt: 3, status: 'ready', gradedAttempts: { quiz: { used: 0, max: 3 } } });
  });

  it('refuses steps out of order, unknown steps and invalid step data with 4xx codes', async () => {
    const early = await step('quiz', { answers: passing });
    expect([early.statusCode, errorCode(early)]).toEqual([409, 'step_out_of_order']);
    const unknown = await step('payroll', {});
    expect([unknown.statusCode, errorCode(unknown)]).toEqual([404, 'invalid_step']);
    const badId = await step('Not_A_Step', {});
    expect([badId.statusCode, errorCode(badId)]).toEqual([404, 'invalid_step']);
    await step('welcome', {});
    const unchecked = await step('policy', { acknowledged: false, policyVersion: POLICY_VERSION });
    expect(unchecked.json().error).toMatchObject({ code: 'invalid_step_data', field: 'data.acknowledged' });
    const oldPolicy = await step('policy', { acknowledged: true, policyVersion: 'SP-1999.1' });
    expect(oldPolicy.json().error).toMatchObject({ code: 'invalid_step_data', field: 'data.policyVersion' });
    // A rejected submission changes nothing and sends nothing.
    expect((await summary()).map((row) => row[1])).toEqual(['Opened', 'Step 2 of 4 · Policy']);
  });
});
