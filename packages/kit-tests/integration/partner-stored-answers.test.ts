import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRetention } from '@partner-task-kit/server/retention/retention-job';
import { eraseWorker } from '@partner-task-kit/server/retention/worker-erasure';
import type { StoreDb } from '@partner-task-kit/server/store/database-schema';
import { deleteAnswersAboutTasks, deleteExpiredIdempotencyRecords } from '@partner-task-kit/server/store/partner-idempotency.repository';
import type { Store } from '@partner-task-kit/server/store/store';
import { purgeUnconfirmedTasks } from '@partner-task-kit/server/store/tasks.repository';
import { exportWorkerData, type WorkerExport } from '@partner-task-kit/server/store/worker-data.repository';
import { tableAccesses } from '../helpers/query-plans';
import { kitCommandOn } from '../helpers/run-command';
import { bearer, consentedToCheck, createPartnerKey, errorCode, newContext, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { deliverEverything, rowsAsText } from '../helpers/worker-answers';
import { asOlderTables, databaseAtMigration, type OlderSchemaDatabase } from '../helpers/older-schema';

const HOUR = 60 * 60_000;
const noPause = { minPauseMs: 0, pausePerBusy: 0 };

/** The partner's backend resolves the check, as the attacker's report did. */
const resolveCheck = (t: TaskApp, key: string, assignedTaskUuid: string, idempotencyKey: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/partner/v1/tasks/${assignedTaskUuid}/steps/check`,
    headers: { ...bearer(key), 'idempotency-key': idempotencyKey },
    payload: { data: { result: 'passed' } },
  });

const storedKeys = async (db: StoreDb) =>
  (await db.selectFrom('partner_idempotency').select(['idempotency_key', 'task_key']).orderBy('idempotency_key').execute()).map((row) => [
    row.idempotency_key,
    row.task_key,
  ]);

describe.each(testDatabases)("the partner API's stored answers on $name", (engine) => {
  let t: TaskApp;
  let store: Store;
  beforeEach(async () => {
    t = await openTaskApp({ engine });
    store = t.database.store;
  });
  afterEach(() => t.close());

  it('are exported with the worker, erased with them, and a replay after the erasure answers as for an unknown task', async () => {
    const { key } = await createPartnerKey(t);
    const name = 'Wilhelmina Idempotent-Quill';
    const worker = (await consentedToCheck(t.app, newContext(), name)).context;
    const other = (await consentedToCheck(t.app, newContext(), 'Octavia Elsewhere-Kept')).context;
    const first = await resolveCheck(t, key, worker.wxAssignedTaskUuid, 'K');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ task: { status: 'completed', stepData: { consent: { fullName: name } } } });
    const replayed = await resolveCheck(t, key, worker.wxAssignedTaskUuid, 'K');
    expect([replayed.statusCode, replayed.body, replayed.headers['idempotent-replayed']]).toEqual([200, first.body, 'true']);
    expect((await resolveCheck(t, key, other.wxAssignedTaskUuid, 'other')).statusCode).toBe(200);
    const url = t.database.url;

    const exported = await kitCommandOn(url, 'tasks', ['export', '--worker', worker.wxWorkerUuid]);
    expect(exported.code).toBe(0);
    expect((JSON.parse(exported.stdout) as WorkerExport).tasks.map((task) => task.partnerApiAnswers)).toEqual([
      [{ status: 200, body: first.json(), createdAt: new Date(t.clock.now()).toISOString() }],
    ]);
    expect(exported.stdout).not.toContain('Octavia');
    // The test can fail: before the erasure, the name is there to be found.
    expect(await rowsAsText(store)).toContain(name);

    const erased = await kitCommandOn(url, 'tasks', ['erase', '--worker', worker.wxWorkerUuid]);

    expect(erased.code).toBe(0);
    expect(erased.stdout).toContain('\n1 stored answer(s) of the partner API about their tasks were deleted.\n');
    expect(await rowsAsText(store)).not.toContain(name);
    expect(await t.database.storedText()).not.toContain(name);
    expect(await storedKeys(store.db)).toEqual([['other', other.wxAssignedTaskUuid]]);
    const again = await resolveCheck(t, key, worker.wxAssignedTaskUuid, 'K');
    const unknown = await resolveCheck(t, key, randomUUID(), 'never-used');
    expect([again.statusCode, again.body, again.headers['idempotent-replayed']]).toEqual([unknown.statusCode, unknown.body, undefined]);
    expect(errorCode(again)).toBe('task_not_found');
  }, 60_000);

  it('erases and exports an answer stored without its task, by an instance of the version before', async () => {
    const { key } = await createPartnerKey(t);
    const worker = (await consentedToCheck(t.app, newContext(), 'Ludmila Before-Upgrade')).context;
    const answer = await resolveCheck(t, key, worker.wxAssignedTaskUuid.toUpperCase(), 'old');
    expect(answer.statusCode).toBe(200);
    // The refusal of another task, also unlinked: it names no task and stays until its 24 hours are over.
    await resolveCheck(t, key, randomUUID(), 'refused');
    await store.db.updateTable('partner_idempotency').set({ task_key: null }).execute();

    const { tasks: exported } = await exportWorkerData(store.db, worker.wxWorkerUuid);
    expect(exported.map((task) => task.partnerApiAnswers.map((stored) => stored.body))).toEqual([[answer.json()]]);
    const erasure = await eraseWorker(
      store,
      { workerUuid: worker.wxWorkerUuid, by: 'test', now: t.clock.now(), uploadFiles: t.uploadFiles },
      noPause,
    );
    expect(erasure.idempotencyAnswers).toBe(1);
    expect(await storedKeys(store.db)).toEqual([['refused', null]]);
  });

  it('go with a task released, so a new binding of its id shows none of them', async () => {
    const { key } = await createPartnerKey(t);
    const worker = (await consentedToCheck(t.app, newContext(), 'Rosamund Released-Early')).context;
    expect((await resolveCheck(t, key, worker.wxAssignedTaskUuid, 'K')).statusCode).toBe(200);

    const released = await kitCommandOn(t.database.url, 'tasks', ['release', worker.wxAssignedTaskUuid]);

    expect(released.code).toBe(0);
    expect(await storedKeys(store.db)).toEqual([]);
    const rebound = (await consentedToCheck(t.app, { ...newContext(), wxAssignedTaskUuid: worker.wxAssignedTaskUuid }, 'Someone Else'))
      .context;
    expect((await exportWorkerData(store.db, rebound.wxWorkerUuid)).tasks.map((task) => task.partnerApiAnswers)).toEqual([[]]);
    expect(await rowsAsText(store)).not.toContain('Rosamund');
  }, 60_000);

  it('go with a task purged as rejected by the platform', async () => {
    const { key } = await createPartnerKey(t);
    const worker = (await consentedToCheck(t.app, newContext(), 'Philippa Purged-Soon')).context;
    expect((await resolveCheck(t, key, worker.wxAssignedTaskUuid, 'K')).statusCode).toBe(200);
    await store.db.updateTable('tasks').set({ rejected_at: t.clock.now(), rejected_reason: 'refused' }).execute();
    // As the server calls it every hour (a version that dates the purge takes `now` too).
    const purge: (db: StoreDb, before: number, now: number) => Promise<number> = purgeUnconfirmedTasks;

    expect(await purge(store.db, t.clock.now() + 1, t.clock.now() + 1)).toBe(1);

    expect(await storedKeys(store.db)).toEqual([]);
    expect(await rowsAsText(store)).not.toContain('Philippa');
  });

  it('are deleted past their 24 hours by the retention job, whatever the process that stored them', async () => {
    const { key } = await createPartnerKey(t);
    const early = (await consentedToCheck(t.app, newContext(), 'Evangeline Day-Old')).context;
    expect((await resolveCheck(t, key, early.wxAssignedTaskUuid, 'early')).statusCode).toBe(200);
    t.clock.advance(2 * HOUR);
    const late = (await consentedToCheck(t.app, newContext(), 'Lavinia Still-Fresh')).context;
    expect((await resolveCheck(t, key, late.wxAssignedTaskUuid, 'late')).statusCode).toBe(200);
    await deliverEverything(store, t.clock.now());
    t.clock.advance(22 * HOUR + 1);

    // A restart: another store on the same database, whose retention job runs as it starts, with
    // TASK_DATA_RETENTION_DAYS=1 (the early task's answers go too).
    const restarted = await t.database.openStore();
    const retention = { outboxMs: 365 * 24 * HOUR, taskDataMs: 24 * HOUR };
    const outcome = await runRetention(restarted, { now: t.clock.now(), retention, uploadFiles: t.uploadFiles }, noPause);

    expect(outcome).toMatchObject({ idempotencyAnswers: 1, tasksErased: 1 });
    expect(await storedKeys(store.db)).toEqual([['late', late.wxAssignedTaskUuid]]);
    expect(await rowsAsText(store)).not.toContain('Evangeline');
    expect(await rowsAsText(store)).toContain('Lavinia');
  });

  it('are deleted in batches of the limit, through the indexes of their time and of their task', async () => {
    await store.db
      .insertInto('partner_idempotency')
      .values(
        Array.from({ length: 5 }, (_, index) => ({
          ...{ partner_key_id: 'k', idempotency_key: `old-${index}`, request_hash: 'h', status: 409, body: '{}' },
          ...{ created_at: index, task_key: `task-${index}` },
        })),
      )
      .execute();
    expect(await deleteExpiredIdempotencyRecords(store.db, { before: 10, limit: 2 })).toBe(2);
    expect((await storedKeys(store.db)).map(([idempotencyKey]) => idempotencyKey)).toEqual(['old-2', 'old-3', 'old-4']);
    expect(await deleteAnswersAboutTasks(store.db, ['task-3', 'task-4'], 1)).toBe(1);
    expect(await storedKeys(store.db)).toHaveLength(2);

    if (store.dialect === 'postgres') await sql`analyze`.execute(store.db);
    const scans = async (run: (db: StoreDb) => Promise<unknown>) =>
      (await tableAccesses(store, 'partner_idempotency', run)).filter((access) => access.index === undefined && !access.byId);
    const indexes = async (run: (db: StoreDb) => Promise<unknown>) =>
      new Set((await tableAccesses(store, 'partner_idempotency', run)).map((access) => access.index).filter(Boolean));
    const expired = (db: StoreDb) => deleteExpiredIdempotencyRecords(db, { before: 10, limit: 100 });
    const aboutTasks = (db: StoreDb) => deleteAnswersAboutTasks(db, ['task-4'], 100);
    expect(await scans(expired)).toEqual([]);
    expect(await indexes(expired)).toContain('partner_idempotency_created');
    expect(await scans(aboutTasks)).toEqual([]);
    expect(await indexes(aboutTasks)).toContain('partner_idempotency_task');
  });
});

describe.each(['sqlite', 'postgres'] as const)('migration 0015 on %s', (dialect) => {
  let opened: OlderSchemaDatabase | undefined;
  afterEach(async () => {
    await opened?.cleanup();
    opened = undefined;
  });

  it('links each stored answer to the task its body holds, and leaves refusals and claims unlinked', async () => {
    opened = await databaseAtMigration(dialect, '0013_pending_index_per_lane');
    const { db } = opened;
    const task = randomUUID().toUpperCase();
    const row = (idempotencyKey: string, status: number | null, body: unknown) => ({
      ...{ partner_key_id: 'k', idempotency_key: idempotencyKey, request_hash: 'h', status },
      ...{ body: body === null ? null : JSON.stringify(body), created_at: 1 },
    });
    const oldTables = asOlderTables(db);
    await oldTables
      .insertInto('partner_idempotency')
      .values([
        row('answered', 200, { task: { id: 'ours', assignedTaskUuid: task, stepData: { consent: { fullName: 'A' } } } }),
        row('refused', 409, { error: { code: 'step_not_awaiting_partner', message: '…', field: 'stepId' } }),
        row('claimed', null, null),
      ])
      .execute();

    await opened.migrateToLatest();

    const rows = await db.selectFrom('partner_idempotency').select(['idempotency_key', 'task_key']).orderBy('idempotency_key').execute();
    expect(rows.map((stored) => [stored.idempotency_key, stored.task_key])).toEqual([
      ['answered', task.toLowerCase()],
      ['claimed', null],
      ['refused', null],
    ]);
  });
});
