import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRetention } from '@partner-task-kit/server/retention/retention-job';
import type { StoreDb } from '@partner-task-kit/server/store/database-schema';
import { claimDeliverable, markDead, markManyDelivered } from '@partner-task-kit/server/store/outbox.repository';
import { deleteDeadLetters, pruneDeliveredWindow } from '@partner-task-kit/server/store/outbox-retention.repository';
import type { OutboxLane } from '@partner-task-kit/server/store/outbox.table';
import type { Store } from '@partner-task-kit/server/store/store';
import { eraseAnswersOfFinishedTasks } from '@partner-task-kit/server/store/task-answers.repository';
import { workerTaskIds } from '@partner-task-kit/server/store/worker-data.repository';
import { tableAccesses } from '../helpers/query-plans';
import { kitCommandOn } from '../helpers/run-command';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import { unusedUploadFiles } from '../helpers/upload-stores';
import { listUpdatesForTask } from '@partner-task-kit/server/store/outbox-status.repository';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { ManualClock } from '../helpers/manual-clock';
import { newContext } from '../helpers/task-app';
import { partnerEventAlone, taskServices, type ServiceTask } from '../helpers/task-services';

const DAY = 24 * 60 * 60_000;
const t0 = Date.UTC(2026, 0, 5, 9, 0, 0);
/** The runs below happen 100 days after t0 with OUTBOX_RETENTION_DAYS=30: t0's deliveries are due, yesterday's not. */
const now = t0 + 100 * DAY;
const old = t0;
const recent = now - DAY;
const retention = { outboxMs: 30 * DAY, taskDataMs: undefined };
const noPause = { minPauseMs: 0, pausePerBusy: 0 };

/** A worker's task, opened by its first platform row (the `ready` of the worker's first visit). */
interface TestTask {
  context: TaskContext;
  opened?: ServiceTask;
}

const addTask = (): TestTask => ({ context: newContext() });

type Outcome = 'delivered' | 'dead' | 'pending';

/**
 * Writes one row of `lane` for the task at `at`, and settles it as the relay would at `at`. Rows are written in the
 * order a test lists them and nothing else is pending meanwhile, so the claim takes exactly this row.
 */
async function row(store: Store, task: TestTask, lane: OutboxLane, at: number, outcome: Outcome): Promise<number> {
  const services = taskServices(store, { clock: new ManualClock(at) });
  if (lane === 'partner') await partnerEventAlone(store, task.opened!, 'task.step_saved', at);
  else if (task.opened) await services.nextUpdate(task.opened);
  else task.opened = await services.open(task.context);
  const [claimed, ...others] = await claimDeliverable(store.db, { now: at, leaseMs: 1_000, limit: 10, workerId: 'test', lane });
  expect(others).toEqual([]);
  if (outcome === 'pending') {
    await sql`update outbox set locked_until = null, locked_by = null where id = ${claimed!.id}`.execute(store.db);
  } else if (outcome === 'delivered') {
    expect(await markManyDelivered(store.db, [claimed!.id], { now: at, workerId: 'test' })).toHaveLength(1);
  } else {
    expect(await markDead(store.db, claimed!.id, { now: at, workerId: 'test', reason: 'rejected (HTTP 422)' })).toBe(true);
  }
  return claimed!.id;
}

async function remainingIds(store: Store): Promise<number[]> {
  return (await store.db.selectFrom('outbox').select('id').orderBy('id').execute()).map((r) => r.id);
}

describe.each(testDatabases)('outbox retention on $name', (engine) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await engine.open();
  });
  afterEach(() => t.cleanup());

  it("deletes deliveries past the retention, keeping each task's newest delivered update, dead letters, waiting rows and recent ones", async () => {
    const { store } = t;
    const [a, b, c, d] = [addTask(), addTask(), addTask(), addTask()];
    const a1 = await row(store, a, 'platform', old, 'delivered');
    const a2 = await row(store, a, 'platform', old + 1_000, 'delivered');
    const aEvent = await row(store, a, 'partner', old, 'delivered');
    const aRecentEvent = await row(store, a, 'partner', recent, 'delivered');
    const b1 = await row(store, b, 'platform', old, 'delivered');
    const b2 = await row(store, b, 'platform', old + 1_000, 'delivered');
    const c1 = await row(store, c, 'platform', old, 'delivered');
    const cDead = await row(store, c, 'platform', old + 1_000, 'dead');
    const cDeadEvent = await row(store, c, 'partner', old, 'dead');
    const d1 = await row(store, d, 'platform', old, 'delivered');
    const d2 = await row(store, d, 'platform', recent, 'delivered');
    // Written last: a pending row is claimed by every later claim, which would take the rows above from their tests.
    const b3 = await row(store, b, 'platform', old + 2_000, 'pending');
    const bEvent = await row(store, b, 'partner', old, 'pending');

    const outcome = await runRetention(store, { now, retention, uploadFiles: unusedUploadFiles() }, noPause);

    expect(await remainingIds(store)).toEqual([a2, aRecentEvent, b2, c1, cDead, cDeadEvent, d2, b3, bEvent].sort((x, y) => x - y));
    expect(outcome).toEqual({
      idempotencyAnswers: 0,
      outboxRows: [a1, aEvent, b1, d1].length,
      tasksErased: 0,
      files: 0,
      walTruncated: true,
    });
    // A second run finds nothing more: what it kept, it keeps.
    expect((await runRetention(store, { now, retention, uploadFiles: unusedUploadFiles() }, noPause)).outboxRows).toBe(0);
  });

  it('runs now by `npm run tasks -- retention`, which prints what it deleted', async () => {
    const { store } = t;
    // The command runs at the wall clock's now, with the default OUTBOX_RETENTION_DAYS (30).
    const monthsAgo = Date.now() - 40 * DAY;
    const task = addTask();
    await row(store, task, 'platform', monthsAgo, 'delivered');
    const kept = await row(store, task, 'platform', monthsAgo + 1_000, 'delivered');
    const event = await row(store, task, 'partner', Date.now() - DAY, 'delivered');

    expect(await kitCommandOn(t.url, 'tasks', ['retention'])).toMatchObject({
      code: 0,
      stdout:
        'retention: 0 finished task(s) lost their answers, 0 uploaded file(s) removed, ' +
        '1 delivered update(s) and event(s) and 0 stored partner API answer(s) deleted\n',
    });
    expect(await remainingIds(store)).toEqual([kept, event]);
    expect(await kitCommandOn(t.url, 'tasks', ['retention', '--worker', task.context.wxWorkerUuid])).toMatchObject({
      code: 2,
      stderr: 'retention: expected no argument and no option\n',
    });
  }, 60_000);

  it('keeps the sentAt rule: a clock stepped back still gets a sentAt after the last one delivered', async () => {
    const { store } = t;
    const task = addTask();
    await row(store, task, 'platform', old, 'delivered');
    const kept = await row(store, task, 'platform', old + 5_000, 'delivered');
    await runRetention(store, { now, retention, uploadFiles: unusedUploadFiles() }, noPause);
    expect(await remainingIds(store)).toEqual([kept]);

    await taskServices(store, { clock: new ManualClock(old + 1) }).nextUpdate(task.opened!);
    const [next] = (await listUpdatesForTask(store.db, task.opened!.id)).slice(-1);
    expect(next!.sentAt).toBe(old + 5_001);
  });

  it('walks a long delivered history window by window, both lanes, down to the newest update', async () => {
    const { store } = t;
    const task = addTask();
    await row(store, task, 'platform', old, 'delivered');
    const { id, assignedTaskUuid, companyUuid } = task.opened!;
    const rows = 1_234;
    // Raw, in one statement a lane: a history of this length would take the test minutes to write request by request.
    for (const lane of ['platform', 'partner']) {
      await sql`
        with recursive n(i) as (select 1 union all select i + 1 from n where i < ${rows})
        insert into outbox (task_id, assigned_task_uuid, company_uuid, lane, payload, sent_at, state, attempts, next_attempt_at, created_at, delivered_at)
        select ${id}, ${assignedTaskUuid}, ${companyUuid}, ${lane}, '{}', cast(${old} as bigint) + i, 'delivered', 1,
          cast(${old} as bigint), cast(${old} as bigint) + i, cast(${old} as bigint) + i
        from n`.execute(store.db);
    }
    const newest = await store.db
      .selectFrom('outbox')
      .select('id')
      .where('lane', '=', 'platform')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

    const outcome = await runRetention(store, { now, retention, uploadFiles: unusedUploadFiles() }, noPause);

    // Every delivery but the task's newest to the platform, the opening's `ready` among them.
    expect(outcome.outboxRows).toBe(2 * rows);
    expect(await remainingIds(store)).toEqual([newest.id]);
  });

  it('deletes dead letters only when asked, a batch at a time, one lane or both', async () => {
    const { store } = t;
    const task = addTask();
    await row(store, task, 'platform', old, 'dead');
    await row(store, task, 'platform', old + 1, 'dead');
    await row(store, task, 'partner', old, 'dead');
    await runRetention(store, { now, retention, uploadFiles: unusedUploadFiles() }, noPause);
    expect(await remainingIds(store)).toHaveLength(3);

    expect(await deleteDeadLetters(store.db, { limit: 5, lane: 'partner' })).toBe(1);
    expect(await deleteDeadLetters(store.db, { limit: 1 })).toBe(1);
    expect(await deleteDeadLetters(store.db, { limit: 5 })).toBe(1);
    expect(await remainingIds(store)).toEqual([]);
  });

  it('reads through indexes: the window by lane, the tasks to erase and a worker’s tasks by their own', async () => {
    const { store } = t;
    const task = addTask();
    await row(store, task, 'platform', old, 'delivered');
    if (store.dialect === 'postgres') await sql`analyze`.execute(store.db);
    const scans = (accesses: { index: string | undefined; byId: boolean; detail: string }[]) =>
      accesses.filter((access) => access.index === undefined && !access.byId).map((access) => access.detail);

    const window = (db: StoreDb) => pruneDeliveredWindow(db, { lane: 'platform', before: now, afterId: 0, limit: 500 });
    expect(scans(await tableAccesses(store, 'outbox', window))).toEqual([]);
    expect(scans(await tableAccesses(store, 'outbox', (db) => deleteDeadLetters(db, { limit: 500 })))).toEqual([]);

    const erase = (db: StoreDb) => eraseAnswersOfFinishedTasks(db, { finishedBefore: now, now, limit: 20 });
    expect((await tableAccesses(store, 'tasks', erase)).map((access) => access.index)).toContain('tasks_answers_to_erase');
    const ofWorker = (db: StoreDb) => workerTaskIds(db, task.context.wxWorkerUuid.toUpperCase());
    expect((await tableAccesses(store, 'tasks', ofWorker)).map((access) => access.index)).toEqual(['tasks_worker']);
  });
});

describe.each(testDatabases)('npm run outbox -- delete-dead on $name', (engine) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await engine.open();
  });
  afterEach(() => t.cleanup());

  it('deletes one dead letter by id, then every one of a lane, then the rest', async () => {
    const { store } = t;
    const task = addTask();
    const platformDead = await row(store, task, 'platform', old, 'dead');
    await row(store, task, 'platform', old + 1, 'dead');
    const delivered = await row(store, task, 'platform', old + 2, 'delivered');
    await row(store, task, 'partner', old, 'dead');
    await row(store, task, 'partner', old + 1, 'dead');
    const url = t.url;

    expect(await kitCommandOn(url, 'outbox', ['delete-dead', String(platformDead)])).toMatchObject({
      code: 0,
      stdout: `#${platformDead} deleted.\n`,
    });
    expect(await kitCommandOn(url, 'outbox', ['delete-dead', String(delivered)])).toMatchObject({
      code: 1,
      stderr: `delete-dead: #${delivered} is not a dead letter (see npm run outbox -- dead)\n`,
    });
    expect(await kitCommandOn(url, 'outbox', ['delete-dead', '--all', '--lane', 'partner'])).toMatchObject({
      code: 0,
      stdout: '2 dead letter(s) of the partner lane deleted.\n',
    });
    expect(await kitCommandOn(url, 'outbox', ['delete-dead', '--all'])).toMatchObject({ code: 0, stdout: '1 dead letter(s) deleted.\n' });
    expect(await remainingIds(store)).toEqual([delivered]);
  }, 60_000);
});

describe('npm run outbox -- delete-dead with bad input', () => {
  it.each([
    [['delete-dead'], 'delete-dead: expected the id of a dead letter (a positive whole number) or --all [--lane platform|partner], got ""'],
    [['delete-dead', 'seven'], 'delete-dead: expected the id of a dead letter (a positive whole number) or --all'],
    [['delete-dead', '7', '--lane', 'partner'], 'delete-dead: expected the id of a dead letter (a positive whole number) or --all'],
    [['delete-dead', '--all', '7'], 'delete-dead: expected the id of a dead letter (a positive whole number) or --all'],
    [['delete-dead', '--all', '--lane', 'carrier'], 'delete-dead: expected --lane platform or --lane partner, got "carrier"'],
    [['retry-dead', '--all'], 'retry-dead: expected no --all (delete-dead --all deletes them)'],
  ])('answers %j with one line saying what it expected, and exit code 2', async (args, message) => {
    const result = await kitCommandOn('/nonexistent/never-opened.db', 'outbox', args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([expect.stringContaining(message), '']);
  });
});
