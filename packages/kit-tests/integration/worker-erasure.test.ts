import { userInfo } from 'node:os';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimDeliverable, markDead } from '@partner-task-kit/server/store/outbox.repository';
import type { Store } from '@partner-task-kit/server/store/store';
import {
  countUndelivered,
  exportWorkerData,
  workerTaskIds,
  type WorkerExport,
} from '@partner-task-kit/server/store/worker-data.repository';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { kitCommandOn } from '../helpers/run-command';
import { newContext, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { deliverEverything, rowsAsText, tellPartnerOfSignature, trainAndSign } from '../helpers/worker-answers';

/**
 * Worker X with a task finished and delivered (its event told too) and one in progress with its updates waiting, the
 * latter also told to the partner and not yet delivered; worker Y with a finished task of their own.
 */
async function twoWorkers(taskApp: TaskApp) {
  const { app, clock, database } = taskApp;
  const { store } = database;
  const x = newContext();
  const xFinished = await trainAndSign(app, { fullName: 'Xanthippe Marchbanks-Quill', context: x });
  await tellPartnerOfSignature(store, xFinished.wxAssignedTaskUuid, clock.now());
  const y = await trainAndSign(app, { fullName: 'Yolanda Brightwater-Fenn' });
  await deliverEverything(store, clock.now());
  clock.advance(60_000);
  const xWaiting = await trainAndSign(app, {
    fullName: 'unused',
    finish: false,
    context: { ...newContext(), wxWorkerUuid: x.wxWorkerUuid },
  });
  await tellPartnerOfSignature(store, xWaiting.wxAssignedTaskUuid, clock.now());
  return { x, xFinished, xWaiting, y };
}

describe.each(testDatabases)('npm run tasks -- export and erase on $name', (engine) => {
  let taskApp: TaskApp;
  let store: Store;
  let url: string;
  beforeEach(async () => {
    taskApp = await openTaskApp({ engine });
    store = taskApp.database.store;
    url = taskApp.database.url;
  });
  afterEach(() => taskApp.close());

  it("prints everything stored about the worker as JSON, and nothing of anyone else's", async () => {
    const { x, xFinished, xWaiting, y } = await twoWorkers(taskApp);

    // The UUID in upper case: the platform's ids compare without case.
    const result = await kitCommandOn(url, 'tasks', ['export', '--worker', x.wxWorkerUuid.toUpperCase()]);

    expect(result).toMatchObject({ code: 0, stderr: '' });
    const exported = JSON.parse(result.stdout) as WorkerExport;
    expect(exported.tasks.map((task) => task.context)).toEqual([xFinished, xWaiting]);
    const [finished, waiting] = exported.tasks;
    expect(finished).toMatchObject({
      status: 'completed',
      stepData: { signature: { fullName: 'Xanthippe Marchbanks-Quill', confirmed: true } },
    });
    expect(finished!.history.map((entry) => entry.kind)).toEqual([
      'opened',
      'started',
      'step_saved',
      'step_saved',
      'step_saved',
      'step_saved',
      'completed',
    ]);
    expect(new Set(finished!.updates.map((update) => update.state))).toEqual(new Set(['delivered']));
    expect(finished!.updates.at(-1)!.payload).toMatchObject({
      taskStatus: 'completed',
      partnerStatus: { details: expect.stringContaining('Xanthippe') },
    });
    expect(finished!.events.map((event) => [event.state, event.deliveredAt !== null])).toEqual([['delivered', true]]);
    expect(waiting).toMatchObject({ status: 'inProgress', stepData: { quiz: expect.any(Object) } });
    expect(new Set(waiting!.updates.map((update) => update.state))).toEqual(new Set(['pending']));
    expect(waiting!.events.map((event) => event.state)).toEqual(['pending']);
    for (const other of [y.wxWorkerUuid, y.wxAssignedTaskUuid, 'Yolanda']) expect(result.stdout).not.toContain(other);
  }, 60_000);

  it("erases the worker's tasks, answers and context, leaves no trace of them, and keeps everyone else's", async () => {
    const { x, y } = await twoWorkers(taskApp);
    // One update of the waiting task refused for good: a dead letter, the first of its task's platform rows.
    const [refused] = await claimDeliverable(store.db, { now: taskApp.clock.now(), leaseMs: 1_000, limit: 10, workerId: 'test' });
    await markDead(store.db, refused!.id, { now: taskApp.clock.now(), workerId: 'test', reason: 'rejected (HTTP 422)' });
    const values = [x.wxWorkerUuid, 'Xanthippe Marchbanks-Quill'];
    const undelivered = await countUndelivered(store.db, await workerTaskIds(store.db, x.wxWorkerUuid));
    expect(undelivered.platform).toBeGreaterThan(0);
    expect(undelivered).toMatchObject({ partner: 1, dead: 1 });
    const yBefore = await exportWorkerData(store.db, y.wxWorkerUuid);
    // The test can fail: before the erasure, the values are there to be found.
    for (const value of values) expect(await rowsAsText(store)).toContain(value);
    for (const value of values) expect(await taskApp.database.storedText()).toContain(value);

    const result = await kitCommandOn(url, 'tasks', ['erase', '--worker', x.wxWorkerUuid, '--by', 'dpo ticket 7']);

    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^Erased worker ${x.wxWorkerUuid}: 2 task\\(s\\) with their context, step data and history, and \\d+ row`),
      ),
      '0 uploaded file(s) were removed from the upload store, with their records.',
      `${undelivered.platform} update(s) to the platform not yet delivered were dropped: the platform keeps the last status it was sent.`,
      "1 event(s) to your backend not yet delivered were dropped: they carried the worker's context and answers.",
      '1 dead letter(s) were deleted: they would have been sent only if retried.',
      '',
    ]);
    // Who and when, never whose: one JSON line on standard error, naming the operator and nothing of the worker.
    const log = JSON.parse(result.stderr) as Record<string, unknown>;
    expect(log).toMatchObject({ level: 30, by: 'dpo ticket 7', time: expect.any(Number) });
    for (const value of values) expect(result.stderr).not.toContain(value);

    for (const value of values) expect(await rowsAsText(store)).not.toContain(value);
    // SQLite: not in the file nor its WAL, not even in free space: what a copy of the disk would show.
    for (const value of values) expect(await taskApp.database.storedText()).not.toContain(value);
    expect(await exportWorkerData(store.db, y.wxWorkerUuid)).toEqual(yBefore);
    expect(await store.db.selectFrom('erasure_log').select('erased_by').execute()).toEqual([{ erased_by: 'dpo ticket 7' }]);
  }, 60_000);

  it('says when nothing is stored about the worker, and logs the request under the OS user', async () => {
    const worker = randomUUID();
    const result = await kitCommandOn(url, 'tasks', ['erase', '--worker', worker]);
    expect(result).toMatchObject({ code: 0, stdout: `Nothing is stored about worker ${worker}; the request is logged.\n` });
    expect(JSON.parse(result.stderr)).toMatchObject({ by: userInfo().username });
    const exported = await kitCommandOn(url, 'tasks', ['export', '--worker', worker]);
    expect(JSON.parse(exported.stdout)).toEqual({ worker, tasks: [] });
  }, 60_000);
});

describe('npm run tasks with bad input', () => {
  const worker: TaskContext['wxWorkerUuid'] = randomUUID();
  it.each([
    [['forget'], 'tasks: expected a command (release, export, erase or retention), got "forget"'],
    [['release', 'nope'], 'release: expected the assigned task\'s UUID, got "nope"'],
    [['export'], 'export: expected --worker <uuid>, got ""'],
    [['erase', '--worker', 'nope'], 'erase: expected --worker <uuid>, got "nope"'],
    [['erase', '--worker'], "tasks: Option '--worker <value>' argument missing: expected release <uuid>, export --worker <uuid>, erase"],
    [['export', '--worker', worker, '--by', 'me'], 'export: expected no --by without --reveal-sensitive: only a reveal is recorded'],
    [['erase', '--worker', worker, '--by', ' '], 'erase: expected --by <name> (1 to 100 printable characters), got " "'],
    [['erase', worker], `erase: expected no argument but --worker <uuid>, got "${worker}"`],
  ])('answers %j with one line saying what it expected, and exit code 2', async (args, message) => {
    const result = await kitCommandOn('/nonexistent/never-opened.db', 'tasks', [...args]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([expect.stringContaining(message), '']);
  });
});
