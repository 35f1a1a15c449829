import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import {
  act,
  createAssignment,
  errorOf,
  fetchToken,
  getAssignment,
  postUpdate,
  update,
  type PartnerTaskAnswerBody,
} from './emulator-client';

/** One test per move of the transition table of docs/platform.md#statuses-and-transitions, over real HTTP. */
describe('emulator: the state rules of spec 3', () => {
  let emulator: RunningEmulator;
  let token: string;

  beforeEach(async () => {
    emulator = await startEmulator();
    token = await fetchToken(emulator.url);
  });
  afterEach(() => emulator.close());

  const send = async (uuid: string, body: Record<string, unknown>) => {
    const response = await postUpdate(emulator.url, token, uuid, body);
    expect(response.status).toBe(200);
    return (await response.json()) as PartnerTaskAnswerBody;
  };

  it('starts a new assignment in ready, with no review and no worker action', async () => {
    const task = await createAssignment(emulator.url, { requireReview: true });
    expect(task.status).toBe('ready');
    expect(task.review).toEqual({ required: true, state: 'none' });
    expect(task.workerActed).toBe(false);
  });

  it('moves ready to inProgress when the worker starts interacting in the portal', async () => {
    const task = await createAssignment(emulator.url);
    const started = await act(emulator.url, task.assignedTaskUuid, 'start');
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('inProgress');
    expect(started.body.trail).toEqual([{ kind: 'portal', at: expect.any(String), action: 'start' }]);
  });

  it('sets the sent status when the update is not older than the last applied one', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url);
    expect(await send(uuid, update('inProgress', 1))).toMatchObject({ applied: true, outcome: 'applied', taskStatus: 'inProgress' });
    expect(await send(uuid, update('completed', 2, { partnerStatus: { label: 'Passed', color: 'success' } }))).toMatchObject({
      applied: true,
      taskStatus: 'completed',
    });
    const task = await getAssignment(emulator.url, uuid);
    expect(task.status).toBe('completed');
    expect(task.latest?.record).toEqual(update('completed', 2, { partnerStatus: { label: 'Passed', color: 'success' } }));
    expect(task.trail.map((entry) => (entry.kind === 'partner' ? entry.outcome : entry.action))).toEqual(['applied', 'applied']);
  });

  it('applies an update whose sentAt equals the last applied one', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url);
    await send(uuid, update('inProgress', 5));
    expect(await send(uuid, update('error', 5))).toMatchObject({ applied: true, taskStatus: 'error' });
  });

  it('ignores an update older than the last applied one and records it as obsolete', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url);
    await send(uuid, update('completed', 10));
    expect(await send(uuid, update('inProgress', 9))).toMatchObject({ applied: false, outcome: 'obsolete', taskStatus: 'completed' });
    const task = await getAssignment(emulator.url, uuid);
    expect(task.status).toBe('completed');
    expect(task.latest?.record.taskStatus).toBe('completed');
    expect(task.trail.at(-1)).toMatchObject({ kind: 'partner', outcome: 'obsolete', record: { taskStatus: 'inProgress' } });
  });

  it('records an exact replay of the last applied update as a duplicate that changes nothing', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url);
    const record = update('inProgress', 3, { partnerId: 'run-1' });
    await send(uuid, record);
    const before = await getAssignment(emulator.url, uuid);
    expect(await send(uuid, record)).toMatchObject({ applied: false, outcome: 'duplicate' });
    const after = await getAssignment(emulator.url, uuid);
    expect(after.latest).toEqual(before.latest);
    expect(after.trail.map((entry) => (entry.kind === 'partner' ? entry.outcome : ''))).toEqual(['applied', 'duplicate']);
  });

  it('keeps a completed task with review required in completed, awaiting approval', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url, { requireReview: true });
    await send(uuid, update('completed', 1));
    const task = await getAssignment(emulator.url, uuid);
    expect(task.status).toBe('completed');
    expect(task.review).toEqual({ required: true, state: 'pending' });
  });

  it.for(['approve', 'reject'] as const)('lets an admin %s a completed task awaiting review', async (action) => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url, { requireReview: true });
    await send(uuid, update('completed', 1));
    const decided = await act(emulator.url, uuid, action);
    expect(decided.status).toBe(200);
    expect(decided.body.status).toBe('completed');
    expect(decided.body.review).toEqual({
      required: true,
      state: action === 'approve' ? 'approved' : 'rejected',
      decidedAt: expect.any(String),
    });
    expect(decided.body.trail.at(-1)).toMatchObject({ kind: 'admin', action });
  });

  it('refuses approval when the task is not completed, not awaiting review, or needs no review', async () => {
    const reviewed = await createAssignment(emulator.url, { requireReview: true });
    expect((await act(emulator.url, reviewed.assignedTaskUuid, 'approve')).body.error?.code).toBe('action_not_allowed');
    await send(reviewed.assignedTaskUuid, update('completed', 1));
    expect((await act(emulator.url, reviewed.assignedTaskUuid, 'approve')).status).toBe(200);
    const again = await act(emulator.url, reviewed.assignedTaskUuid, 'reject');
    expect(again.status).toBe(409);
    const unreviewed = await createAssignment(emulator.url);
    await send(unreviewed.assignedTaskUuid, update('completed', 1));
    const refused = await act(emulator.url, unreviewed.assignedTaskUuid, 'approve');
    expect(refused.status).toBe(409);
    expect(refused.body.error?.code).toBe('action_not_allowed');
  });

  it('lets an admin reset a task in which the worker acted, back to ready without review', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url, { requireReview: true });
    await send(uuid, update('completed', 1));
    await act(emulator.url, uuid, 'approve');
    const reset = await act(emulator.url, uuid, 'reset');
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ status: 'ready', review: { required: true, state: 'none' }, workerActed: false });
    expect(reset.body.trail.at(-1)).toMatchObject({ kind: 'admin', action: 'reset' });
  });

  it('refuses a reset before the worker acted', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url);
    const refused = await act(emulator.url, uuid, 'reset');
    expect(refused.status).toBe(409);
    expect(refused.body.error?.code).toBe('action_not_allowed');
  });

  it.for(['ready', 'inProgress'] as const)('clears the review of a reviewed completed task on a %s update', async (status) => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url, { requireReview: true });
    await send(uuid, update('completed', 1));
    await act(emulator.url, uuid, 'reject');
    expect(await send(uuid, update(status, 2))).toMatchObject({ applied: true, taskStatus: status });
    expect((await getAssignment(emulator.url, uuid)).review).toEqual({ required: true, state: 'none' });
  });

  it('requires a new review after a restarted task is completed again', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url, { requireReview: true });
    await send(uuid, update('completed', 1));
    await act(emulator.url, uuid, 'approve');
    await send(uuid, update('inProgress', 2));
    await send(uuid, update('completed', 3));
    expect((await getAssignment(emulator.url, uuid)).review).toEqual({ required: true, state: 'pending' });
    expect((await act(emulator.url, uuid, 'approve')).status).toBe(200);
  });

  it('clears the review on a viewed update when viewed is accepted', async () => {
    await emulator.close();
    emulator = await startEmulator({ acceptViewed: true });
    token = await fetchToken(emulator.url);
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url, { requireReview: true });
    await send(uuid, update('completed', 1));
    await act(emulator.url, uuid, 'approve');
    expect(await send(uuid, update('viewed', 2))).toMatchObject({ applied: true, taskStatus: 'viewed' });
    expect((await getAssignment(emulator.url, uuid)).review.state).toBe('none');
  });

  it('refuses a viewed update with 400 by default, since spec 2.6 does not list it', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url);
    const response = await postUpdate(emulator.url, token, uuid, update('viewed', 1));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'invalid_body', field: 'taskStatus' });
  });

  it('completes a task with the portal "Task Completed" button, awaiting review when required', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url, { requireReview: true });
    const completed = await act(emulator.url, uuid, 'complete');
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ status: 'completed', review: { state: 'pending' }, workerActed: true });
  });

  it('refuses the "Task Completed" button when it is hidden for the task', async () => {
    const { assignedTaskUuid: uuid } = await createAssignment(emulator.url, { hideTaskCompletedButton: true });
    const refused = await act(emulator.url, uuid, 'complete');
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toContain('hidden');
  });

  it('creates an unknown task on the fly by default', async () => {
    const uuid = '7d444840-9dc0-11d1-b245-5ffdce74fad2';
    expect(await send(uuid, update('inProgress', 1))).toMatchObject({ applied: true, assignedTaskUuid: uuid });
    expect(await getAssignment(emulator.url, uuid)).toMatchObject({ origin: 'partnerUpdate', status: 'inProgress' });
  });

  it('answers 404 for an unknown task when unknown tasks are rejected', async () => {
    await emulator.close();
    emulator = await startEmulator({ unknownTasks: 'reject' });
    token = await fetchToken(emulator.url);
    const response = await postUpdate(emulator.url, token, '7d444840-9dc0-11d1-b245-5ffdce74fad2', update('inProgress', 1));
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('task_not_found');
  });
});
