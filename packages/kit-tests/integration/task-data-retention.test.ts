import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRetention } from '@partner-task-kit/server/retention/retention-job';
import type { Store } from '@partner-task-kit/server/store/store';
import { findTaskByAssignedTaskUuid } from '@partner-task-kit/server/store/tasks.repository';
import { exportWorkerData } from '@partner-task-kit/server/store/worker-data.repository';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { deliverEverything, rowsAsText, tellPartnerOfSignature, trainAndSign } from '../helpers/worker-answers';

const DAY = 24 * 60 * 60_000;
/** TASK_DATA_RETENTION_DAYS=30; the outbox keeps its rows for a year here, so only the answers go. */
const retention = { outboxMs: 365 * DAY, taskDataMs: 30 * DAY };
const noPause = { minPauseMs: 0, pausePerBusy: 0 };

/** The one task of a worker, as the export shows it. */
async function exported(store: Store, context: TaskContext) {
  const { tasks } = await exportWorkerData(store.db, context.wxWorkerUuid);
  expect(tasks).toHaveLength(1);
  return tasks[0]!;
}

describe.each(testDatabases)('task data retention on $name', (engine) => {
  let taskApp: TaskApp;
  let store: Store;
  beforeEach(async () => {
    taskApp = await openTaskApp({ engine });
    store = taskApp.database.store;
  });
  afterEach(() => taskApp.close());

  const retainAt = (now: number) => runRetention(store, { now, retention, uploadFiles: taskApp.uploadFiles }, noPause);

  it("erases the answers of tasks finished before it, keeping each task's row, status, history and updates", async () => {
    const { app, clock } = taskApp;
    const finishedLongAgo = await trainAndSign(app, { fullName: 'Ottoline Quaver-Vane' });
    await tellPartnerOfSignature(store, finishedLongAgo.wxAssignedTaskUuid, clock.now());
    const unfinished = await trainAndSign(app, { fullName: 'never signed', finish: false });
    await deliverEverything(store, clock.now());
    const before = await exported(store, finishedLongAgo);
    clock.advance(60 * DAY);
    const finishedLately = await trainAndSign(app, { fullName: 'Perpetua Lately-Wren' });
    await deliverEverything(store, clock.now());
    expect(await rowsAsText(store)).toContain('Ottoline Quaver-Vane');

    expect(await retainAt(clock.now() + DAY)).toEqual({
      idempotencyAnswers: 0,
      outboxRows: 0,
      tasksErased: 1,
      files: 0,
      walTruncated: true,
    });

    const after = await exported(store, finishedLongAgo);
    expect(await rowsAsText(store)).not.toContain('Ottoline Quaver-Vane');
    // Nor in what the storage holds: on SQLite the file and its WAL, where rows rewritten before (each update settled)
    // could have left copies.
    expect(await taskApp.database.storedText()).not.toContain('Ottoline Quaver-Vane');
    expect(after).toMatchObject({ status: 'completed', stepData: {}, attempt: 1, context: finishedLongAgo });
    expect(after.history.map((entry) => [entry.kind, entry.stepId, entry.detail])).toEqual(
      before.history.map((entry) => [entry.kind, entry.stepId, null]),
    );
    expect(before.history.some((entry) => entry.detail !== null)).toBe(true);
    // Every update stays, with its status and label; only the details, which quote the worker, are gone.
    expect(after.updates.map((update) => update.payload)).toEqual(
      before.updates
        .map((update) => ({ ...update.payload, partnerStatus: { ...update.payload.partnerStatus, details: undefined } }))
        .map((payload) => JSON.parse(JSON.stringify(payload)) as unknown),
    );
    expect(after.events).toHaveLength(1);
    expect(after.events[0]!.payload).not.toHaveProperty('data.stepData');
    expect(after.events[0]!.payload).toHaveProperty('data.workerUuid', finishedLongAgo.wxWorkerUuid);

    expect((await exported(store, unfinished)).stepData).toHaveProperty('quiz');
    expect((await exported(store, finishedLately)).stepData).toMatchObject({ signature: { fullName: 'Perpetua Lately-Wren' } });
    // Nothing more to erase: the second run finds the erased task erased.
    expect((await retainAt(clock.now() + DAY)).tasksErased).toBe(0);
  });

  it('waits for a finished task’s last update to be delivered before erasing its answers', async () => {
    const { app, clock } = taskApp;
    const context = await trainAndSign(app, { fullName: 'Waiting Wendeline' });
    clock.advance(60 * DAY);
    expect((await retainAt(clock.now())).tasksErased).toBe(0);
    expect(await rowsAsText(store)).toContain('Waiting Wendeline');

    await deliverEverything(store, clock.now());
    expect((await retainAt(clock.now())).tasksErased).toBe(1);
    expect(await rowsAsText(store)).not.toContain('Waiting Wendeline');
    expect((await findTaskByAssignedTaskUuid(store.db, context.wxAssignedTaskUuid))?.status).toBe('completed');
  });

  it('erases a task again when a new attempt finishes after the first erasure', async () => {
    const { app, clock } = taskApp;
    const context = await trainAndSign(app, { fullName: 'First Attempt-Name' });
    await deliverEverything(store, clock.now());
    clock.advance(60 * DAY);
    expect((await retainAt(clock.now())).tasksErased).toBe(1);

    await trainAndSign(app, { fullName: 'Second Attempt-Name', context, restart: true });
    await deliverEverything(store, clock.now());
    expect((await retainAt(clock.now() + DAY)).tasksErased).toBe(0);
    expect(await rowsAsText(store)).toContain('Second Attempt-Name');
    clock.advance(60 * DAY);
    expect((await retainAt(clock.now())).tasksErased).toBe(1);
    expect(await rowsAsText(store)).not.toContain('Attempt-Name');
  });
});
