import { afterEach, describe, expect, it } from 'vitest';
import { findTaskByAssignedTaskUuid } from '@partner-task-kit/server/store/tasks.repository';
import { listHistory } from '@partner-task-kit/server/store/task-history.repository';
import { bearer, consentedToCheck, createPartnerKey, errorCode, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { workflowCatalog } from '@partner-task-kit/workflow/workflow-catalog';
import { backgroundCheckWorkflow } from '../fixtures/workflows/background-check/definition';

let t: TaskApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** What the platform's admins read: it must never reach the worker's page. */
const ADMIN_DETAILS = 'Record 4711 matched the watch list; see case file.';
const WORKER_MESSAGE = { en: 'Your identity document could not be verified.', es: 'No se pudo verificar tu documento de identidad.' };

describe.each(testDatabases)("the partner's reason for the worker, on $name", (engine) => {
  /** A background-check task waiting on the partner's `check`, a partner key, and the partner API's step route. */
  async function awaitingCheck() {
    // One app per test; a second task of the test opens in the same one.
    t ??= await openTaskApp({ engine });
    const app = t;
    const session = await consentedToCheck(app.app);
    const { key } = await createPartnerKey(app);
    let sent = 0;
    const resolve = (payload: unknown) =>
      app.app.inject({
        method: 'POST',
        url: `/api/partner/v1/tasks/${session.context.wxAssignedTaskUuid}/steps/check`,
        payload: payload as object,
        headers: { ...bearer(key), 'idempotency-key': `resolve-${(sent += 1)}` },
      });
    const workerView = () => app.app.inject({ method: 'GET', url: '/api/task', headers: bearer(session.token) });
    return { app, session, resolve, workerView };
  }

  it('carries the workerMessage of a failed result to the task view and the history, never the details', async () => {
    const { app, session, resolve, workerView } = await awaitingCheck();
    const resolved = await resolve({ data: { result: 'failed', details: ADMIN_DETAILS }, workerMessage: WORKER_MESSAGE });
    expect(resolved.statusCode).toBe(200);

    const seen = await workerView();
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({
      status: 'error',
      failure: {
        reason: 'partner_failed',
        stepId: 'check',
        workerMessage: WORKER_MESSAGE,
      },
    });
    // The step names no `failedNextStep`: the page says the shell's own next step.
    expect(seen.json().failure).not.toHaveProperty('nextStep');
    expect(seen.body).not.toContain(ADMIN_DETAILS);

    const task = await findTaskByAssignedTaskUuid(app.database.store.db, session.context.wxAssignedTaskUuid);
    const failed = (await listHistory(app.database.store.db, task!.id)).filter((entry) => entry.kind === 'failed');
    expect(failed).toEqual([expect.objectContaining({ stepId: 'check', detail: { workerMessage: WORKER_MESSAGE } })]);
  });

  it('takes one text for every language; a failure without one carries none, nor a next step the step does not name', async () => {
    const { resolve, workerView } = await awaitingCheck();
    expect((await resolve({ data: { result: 'failed' }, workerMessage: 'Please call us.' })).statusCode).toBe(200);
    // One text for every language comes as BCP 47's undetermined language: the view carries one shape.
    expect((await workerView()).json()).toMatchObject({ failure: { workerMessage: { und: 'Please call us.' } } });

    const other = await awaitingCheck();
    expect((await other.resolve({ data: { result: 'failed', details: ADMIN_DETAILS } })).statusCode).toBe(200);
    const failure = (await other.workerView()).json<{ failure: Record<string, unknown> }>().failure;
    expect(failure).not.toHaveProperty('workerMessage');
    // The fixture's check names no `failedNextStep`: the page says the shell's own next step.
    expect(failure).not.toHaveProperty('nextStep');
  });

  it("carries the step's failedNextStep beside the partner's reason", async () => {
    const nextStep = { en: 'Write to checks@partner.example for help.' };
    const steps = backgroundCheckWorkflow.steps.map((step) => (step.id === 'check' ? { ...step, failedNextStep: nextStep } : step));
    t = await openTaskApp({
      engine,
      workflows: workflowCatalog([{ ...backgroundCheckWorkflow, steps }], { defaultWorkflow: backgroundCheckWorkflow.id }),
    });
    const { resolve, workerView } = await awaitingCheck();
    expect((await resolve({ data: { result: 'failed' }, workerMessage: WORKER_MESSAGE })).statusCode).toBe(200);
    expect((await workerView()).json()).toMatchObject({ failure: { workerMessage: WORKER_MESSAGE, nextStep } });
  });

  it.each([
    ['an empty text', '   ', 'workerMessage'],
    ['a text past 500 characters', 'x'.repeat(501), 'workerMessage'],
    ['a language tag that is none', { 'not a tag': 'Hello' }, 'workerMessage'],
    ['no language at all', {}, 'workerMessage'],
    ['an empty text in one language', { en: 'Hello', es: '' }, 'workerMessage'],
    ['a number', 42, 'workerMessage'],
  ])('refuses %s with 400 invalid_body, and the task still waits', async (_name, workerMessage, field) => {
    const { resolve, workerView } = await awaitingCheck();
    const refused = await resolve({ data: { result: 'failed' }, workerMessage });
    expect([refused.statusCode, errorCode(refused)]).toEqual([400, 'invalid_body']);
    expect(refused.json<{ error: { field?: string; message: string } }>().error.field).toMatch(new RegExp(`^${field}`));
    expect((await workerView()).json()).toMatchObject({ status: 'inProgress', currentStep: 'check' });
  });

  it('refuses a workerMessage with a result that does not fail the step: no screen would show it', async () => {
    const { resolve, workerView } = await awaitingCheck();
    const refused = await resolve({ data: { result: 'passed' }, workerMessage: 'Well done.' });
    expect([refused.statusCode, refused.json()]).toEqual([
      400,
      {
        error: {
          code: 'worker_message_without_failure',
          message: 'workerMessage is shown to the worker when the result fails the step; this result does not.',
          field: 'workerMessage',
        },
      },
    ]);
    expect((await workerView()).json()).toMatchObject({ status: 'inProgress', currentStep: 'check' });
  });
});
