import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerAnswers, offerBasis } from '@partner-task-kit/server/offers/offer-basis';
import { storeOffer } from '@partner-task-kit/server/store/task-offers.repository';
import { findTaskByAssignedTaskUuid } from '@partner-task-kit/server/store/tasks.repository';
import type { TaskView } from '@partner-task-kit/workflow/contract/task-view';
import { workAuthorization } from '../fixtures/workflows/work-authorization/definition';
import { stepById } from '@partner-task-kit/workflow/workflow-path';
import { documentPhotos } from '../helpers/file-uploads';
import { bearer, errorCode, newContext, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';

/**
 * The engine's moves on a workflow that branches, through the task API on each engine: the server refuses a step off
 * the path, an answer that fails a check against today or the offer shown, and keeps the path when the worker goes
 * back and changes an answer.
 */
describe.each(testDatabases)('a workflow that branches, on $name', (engine) => {
  let t: TaskApp;
  beforeAll(async () => {
    t = await openTaskApp({ engine });
  });
  afterAll(() => t.close());

  const open = async () => {
    const context = newContext();
    const response = await t.app.inject({ method: 'POST', url: '/api/session', payload: { ...context, workflow: 'work-authorization' } });
    expect(response.statusCode, response.body).toBe(200);
    return { context, token: (response.json() as { token: string }).token };
  };
  const post = async (token: string, url: string, payload: Record<string, unknown>) =>
    await t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  const step = (token: string, stepId: string, data: unknown) => post(token, `/api/task/steps/${stepId}`, { data });
  const view = async (token: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/task', headers: bearer(token) })).json() as TaskView;
  const labels = async (assignedTaskUuid: string) => {
    const task = await findTaskByAssignedTaskUuid(t.database.store.db, assignedTaskUuid);
    const rows = await t.database.store.db
      .selectFrom('outbox')
      .select('payload')
      .where('task_id', '=', task!.id)
      .where('lane', '=', 'platform')
      .orderBy('id')
      .execute();
    return rows.map((row) => (JSON.parse(row.payload) as { partnerStatus: { label: string; details: string } }).partnerStatus);
  };

  it('follows the branch the answer names and refuses a step off it', async () => {
    const { token } = await open();
    expect((await view(token)).progress).toEqual({ position: 1, total: 6 });
    expect((await step(token, 'citizenship', { citizen: true })).statusCode).toBe(200);
    const onId = await view(token);
    expect(onId).toMatchObject({ currentStep: 'national-id', progress: { position: 2, total: 6 }, canGoBack: true });
    // The foreign document after "citizen: true": not on the path.
    const refused = await step(token, 'document', { documentType: 'passport', expiryDate: '2030-01-01' });
    expect([refused.statusCode, errorCode(refused)]).toEqual([409, 'step_out_of_order']);
    expect((await view(token)).updatedAt).toBe(onId.updatedAt);
  });

  it('goes back, drops the answers of the branch left, and tells the platform where the worker is', async () => {
    const { context, token } = await open();
    await step(token, 'citizenship', { citizen: true });
    expect((await step(token, 'national-id', { nationalId: 'ab12cd34' })).statusCode).toBe(200);
    expect((await step(token, 'photos', await documentPhotos(t.app, token))).statusCode).toBe(200);
    expect((await post(token, '/api/task/back', { from: 'postcode' })).statusCode).toBe(200);
    const back = await post(token, '/api/task/back', { from: 'photos' });
    expect(back.statusCode, back.body).toBe(200);
    expect((back.json() as TaskView).currentStep).toBe('national-id');
    expect((await post(token, '/api/task/back', { from: 'national-id' })).statusCode).toBe(200);
    const first = await post(token, '/api/task/back', { from: 'citizenship' });
    expect([first.statusCode, errorCode(first)]).toEqual([409, 'back_not_allowed']);

    // Not a citizen after all: the national ID leaves the path, and with it its answer. The photos, on both paths, stay.
    await step(token, 'citizenship', { citizen: false });
    const onDocument = await view(token);
    expect(onDocument.currentStep).toBe('document');
    expect(Object.keys(onDocument.stepData).sort()).toEqual(['citizenship', 'photos']);
    const sent = await labels(context.wxAssignedTaskUuid);
    expect(sent.map((status) => status.label)).toContain('Step 2 of 6 · National ID');
    expect(sent.map((status) => status.label)).toContain('Step 3 of 6 · Photos');
    expect(sent.some((status) => status.details.startsWith('The worker went back to step 1 of 6 (Citizenship)'))).toBe(true);
    for (const status of sent) expect([...status.label].length).toBeLessThanOrEqual(32);
  });

  it('takes the photos only as uploads of this task, each made for its side', async () => {
    const { token } = await open();
    await step(token, 'citizenship', { citizen: true });
    await step(token, 'national-id', { nationalId: 'ab12cd34' });
    const photos = await documentPhotos(t.app, token);
    const stranger = await open();
    await step(stranger.token, 'citizenship', { citizen: true });
    await step(stranger.token, 'national-id', { nationalId: 'zz98yy76' });
    const strangers = await documentPhotos(t.app, stranger.token);
    const refusals = [
      [{ front: photos.back, back: photos.front }, 'data.front'],
      [{ ...photos, back: strangers.back }, 'data.back'],
      [{ ...photos, back: 'A'.repeat(22) }, 'data.back'],
      [{ front: photos.front }, 'data.back'],
    ] as const;
    for (const [data, field] of refusals) {
      const refused = await step(token, 'photos', data);
      expect([refused.statusCode, refused.json()], JSON.stringify(data)).toMatchObject([
        400,
        { error: { code: 'invalid_step_data', field } },
      ]);
    }
    expect((await step(token, 'photos', photos)).statusCode).toBe(200);
    expect(await view(token)).toMatchObject({ currentStep: 'postcode', progress: { position: 4, total: 6 }, stepData: { photos } });
  });

  it('refuses an expiry date in the past, naming the field, and changes nothing', async () => {
    const { token } = await open();
    await step(token, 'citizenship', { citizen: false });
    const before = await view(token);
    const past = await step(token, 'document', { documentType: 'passport', expiryDate: '2020-01-01' });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ error: { code: 'invalid_step_data', field: 'data.expiryDate' } });
    expect(await view(token)).toEqual(before);
  });

  it('refuses an answer not in the offer shown, and one sent before any offer was loaded', async () => {
    const { context, token } = await open();
    await step(token, 'citizenship', { citizen: false });
    await step(token, 'document', { documentType: 'work-visa', expiryDate: '2031-05-01' });
    await step(token, 'photos', await documentPhotos(t.app, token));
    await step(token, 'postcode', { postcode: 'SW1A 1AA' });
    const unloaded = await step(token, 'appointment', { slotId: 'slot-1' });
    expect([unloaded.statusCode, errorCode(unloaded)]).toEqual([409, 'offer_not_loaded']);

    // The offer as the loader keeps it: for the answers the step depends on, in this attempt.
    const task = await findTaskByAssignedTaskUuid(t.database.store.db, context.wxAssignedTaskUuid);
    const appointment = stepById(workAuthorization, 'appointment')!;
    const basis = offerBasis(offerAnswers(workAuthorization, task!.stepData, appointment));
    const offer = { slots: [{ id: 'slot-7', startsAt: '2030-01-07T09:00:00.000Z', place: 'Centre' }] };
    await storeOffer(t.database.store.db, {
      taskId: task!.id,
      stepId: 'appointment',
      attempt: task!.attempt,
      basis,
      offer,
      loadedAt: t.clock.now(),
    });

    const outside = await step(token, 'appointment', { slotId: 'slot-1' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ error: { code: 'invalid_step_data', field: 'data.slotId' } });
    expect((await step(token, 'appointment', { slotId: 'slot-7' })).statusCode).toBe(200);
    const waiting = await view(token);
    expect(waiting).toMatchObject({ currentStep: 'verification', canGoBack: false, canRestart: false });
    const back = await post(token, '/api/task/back', { from: 'verification' });
    expect([back.statusCode, errorCode(back)]).toEqual([409, 'back_not_allowed']);
    const restart = await post(token, '/api/task/restart', {});
    expect([restart.statusCode, errorCode(restart)]).toEqual([409, 'restart_not_allowed']);
  });
});
