import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stepResultSchema } from '@partner-task-kit/workflow/contract/step-submission';
import { taskUpdatesResponseSchema } from '@partner-task-kit/workflow/contract/task-updates';
import { POLICY_VERSION } from '../fixtures/workflows/safety-training/definition';
import { testDatabases } from '../helpers/test-databases';
import { bearer, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';

const passing = { exits: 'b', spill: 'a', ppe: 'c', injury: 'a', lifting: 'b' };
const failing = { exits: 'a', spill: 'b', ppe: 'a', injury: 'b', lifting: 'a' };

/**
 * A worker sent back to a finished task (an admin reset or a rejected review, which the platform does not tell the
 * partner) reopens it: nothing on the way to "Start again" answers an error.
 */
describe.each(testDatabases)('a reopened task through the API on $name', (engine) => {
  let t: TaskApp;
  let headers: Record<string, string>;
  beforeEach(async () => {
    t = await openTaskApp({ engine });
    headers = bearer((await openSession(t.app)).token);
  });
  afterEach(async () => {
    await t.close();
  });

  const post = (url: string, payload: unknown = {}) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });
  const step = async (id: string, data: unknown) => stepResultSchema.parse((await post(`/api/task/steps/${id}`, { data })).json()).task;
  const sentCount = async () =>
    taskUpdatesResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/task/updates', headers })).json()).updates.length;

  it('answers start on a completed task with the task as it is, sending nothing', async () => {
    await step('welcome', {});
    await step('policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    await step('quiz', { answers: passing });
    const completed = await step('signature', { fullName: 'Ana López', confirmed: true });
    expect(completed.status).toBe('completed');
    const sent = await sentCount();
    const start = await post('/api/task/start');
    expect([start.statusCode, start.json()]).toEqual([200, completed]);
    expect(await sentCount()).toBe(sent);
  });

  it('answers start on a task in error with the task as it is, sending nothing', async () => {
    await step('welcome', {});
    await step('policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    let failed = await step('quiz', { answers: failing });
    for (let i = 1; i < 3; i += 1) failed = await step('quiz', { answers: failing });
    expect(failed.status).toBe('error');
    const sent = await sentCount();
    const start = await post('/api/task/start');
    expect([start.statusCode, start.json()]).toEqual([200, failed]);
    expect(await sentCount()).toBe(sent);
  });

  it('starts again from a reopened completed task: a new attempt that sends ready', async () => {
    await step('welcome', {});
    await step('policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    await step('quiz', { answers: passing });
    await step('signature', { fullName: 'Ana López', confirmed: true });
    expect((await post('/api/task/start')).statusCode).toBe(200);
    const restarted = await post('/api/task/restart');
    expect([restarted.statusCode, restarted.json()]).toMatchObject([200, { status: 'ready', attempt: 2, started: false }]);
    const updates = taskUpdatesResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/task/updates', headers })).json(),
    ).updates;
    expect(updates.at(-1)?.record.taskStatus).toBe('ready');
  });
});
