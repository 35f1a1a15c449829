import { existsSync, readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newPartnerKey } from '@partner-task-kit/server/partner-api/partner-key-secret';
import { runRetention } from '@partner-task-kit/server/retention/retention-job';
import { eraseWorker } from '@partner-task-kit/server/retention/worker-erasure';
import type { DatabaseSchema, StoreDb, StoreDialect } from '@partner-task-kit/server/store/database-schema';
import { storeMigrations } from '@partner-task-kit/server/store/migrations';
import { deleteAnswersAboutTasks, deleteExpiredIdempotencyRecords } from '@partner-task-kit/server/store/partner-idempotency.repository';
import { insertPartnerKey } from '@partner-task-kit/server/store/partner-keys.repository';
import type { Store } from '@partner-task-kit/server/store/store';
import { purgeUnconfirmedTasks } from '@partner-task-kit/server/store/tasks.repository';
import { exportWorkerData, type WorkerExport } from '@partner-task-kit/server/store/worker-data.repository';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { tableAccesses } from '../helpers/query-plans';
import { runKitCommand } from '../helpers/run-command';
import { bearer, errorCode, newContext, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases, testPostgresUrl, type TestDatabase, type TestDatabaseEngine } from '../helpers/test-databases';
import { deliverEverything, rowsAsText } from '../helpers/worker-answers';

const HOUR = 60 * 60_000;
const noPause = { minPauseMs: 0, pausePerBusy: 0 };

/** The DATABASE_URL of a test database, as the command reads it: the SQLite file, or Postgres with the test's schema. */
function databaseUrlOf(engine: TestDatabaseEngine, t: TestDatabase): string {
  if (engine.name === 'sqlite') return t.location;
  const url = new URL(testPostgresUrl);
  url.searchParams.set('options', `-c search_path=${t.location}`);
  return url.toString();
}

const tasks = (databaseUrl: string, ...args: string[]) => runKitCommand('tasks', { DATABASE_URL: databaseUrl }, 30_000, args);

/** The SQLite file and its WAL, as text: what a copy of the disk would show. */
function sqliteBytes(filename: string): string {
  const wal = existsSync(`${filename}-wal`) ? readFileSync(`${filename}-wal`) : Buffer.alloc(0);
  return Buffer.concat([readFileSync(filename), wal]).toString('latin1');
}

async function createKey(t: TaskApp): Promise<string> {
  const { key, prefix, keyHash } = newPartnerKey();
  const created = await insertPartnerKey(t.database.store.db, {
    ...{ name: `key-${randomUUID().slice(0, 8)}`, prefix, keyHash },
    ...{ companyUuid: null, now: t.clock.now() },
  });
  if (!created.ok) throw new Error('key not created');
  return key;
}

/** A worker on background-check who consented with `fullName`: the task waits on the partner's check. */
async function consented(t: TaskApp, fullName: string, context: TaskContext = newContext()): Promise<TaskContext> {
  const session = await t.app.inject({ method: 'POST', url: '/api/session', payload: { ...context, workflow: 'background-check' } });
  expect(session.statusCode).toBe(200);
  const saved = await t.app.inject({
    method: 'POST',
    url: '/api/task/steps/consent',
    headers: bearer(session.json<{ token: string }>().token),
    payload: { data: { fullName, agree: true } },
  });
  expect(saved.statusCode).toBe(200);
  return context;
}

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
    const key = await createKey(t);
    const name = 'Wilhelmina Idempotent-Quill';
    const worker = await consented(t, name);
    const other = await consented(t, 'Octavia Elsewhere-Kept');
    const first = await resolveCheck(t, key, worker.wxAssignedTaskUuid, 'K');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ task: { status: 'completed', stepData: { consent: { fullName: name } } } });
    const replayed = await resolveCheck(t, key, worker.wxAssignedTaskUuid, 'K');
    expect([replayed.statusCode, replayed.body, replayed.headers['idempotent-replayed']]).toEqual([200, first.body, 'true']);
    expect((await resolveCheck(t, key, other.wxAssignedTaskUuid, 'other')).statusCode).toBe(200);
    const url = databaseUrlOf(engine, t.database);

    const exported = await tasks(url, 'export', '--worker', worker.wxWorkerUuid);
    expect(exported.code).toBe(0);
    expect((JSON.parse(exported.stdout) as WorkerExport).tasks.map((task) => task.partnerApiAnswers)).toEqual([
      [{ status: 200, body: first.json(), createdAt: new Date(t.clock.now()).toISOString() }],
    ]);
    expect(exported.stdout).not.toContain('Octavia');
    // The test can fail: before the erasure, the name is there to be found.
    expect(await rowsAsText(store)).toContain(name);

    const erased = await tasks(url, 'erase', '--worker', worker.wxWorkerUuid);

    expect(erased.code).toBe(0);
    expect(erased.stdout).toContain('\n1 stored answer(s) of the partner API about their tasks were deleted.\n');
    expect(await rowsAsText(store)).not.toContain(name);
    if (engine.name === 'sqlite') expect(sqliteBytes(t.database.location)).not.toContain(name);
    expect(await storedKeys(store.db)).toEqual([['other', other.wxAssignedTaskUuid]]);
    const again = await resolveCheck(t, key, worker.wxAssignedTaskUuid, 'K');
    const unknown = await resolveCheck(t, key, randomUUID(), 'never-used');
    expect([again.statusCode, again.body, again.headers['idempotent-replayed']]).toEqual([unknown.statusCode, unknown.body, undefined]);
    expect(errorCode(again)).toBe('task_not_found');
  }, 60_000);

  it('erases and exports an answer stored without its task, by an instance of the version before', async () => {
    const key = await createKey(t);
    const worker = await consented(t, 'Ludmila Before-Upgrade');
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
    const key = await createKey(t);
    const worker = await consented(t, 'Rosamund Released-Early');
    expect((await resolveCheck(t, key, worker.wxAssignedTaskUuid, 'K')).statusCode).toBe(200);

    const released = await tasks(databaseUrlOf(engine, t.database), 'release', worker.wxAssignedTaskUuid);

    expect(released.code).toBe(0);
    expect(await storedKeys(store.db)).toEqual([]);
    const rebound = await consented(t, 'Someone Else', { ...newContext(), wxAssignedTaskUuid: worker.wxAssignedTaskUuid });
    expect((await exportWorkerData(store.db, rebound.wxWorkerUuid)).tasks.map((task) => task.partnerApiAnswers)).toEqual([[]]);
    expect(await rowsAsText(store)).not.toContain('Rosamund');
  }, 60_000);

  it('go with a task purged as rejected by the platform', async () => {
    const key = await createKey(t);
    const worker = await consented(t, 'Philippa Purged-Soon');
    expect((await resolveCheck(t, key, worker.wxAssignedTaskUuid, 'K')).statusCode).toBe(200);
    await store.db.updateTable('tasks').set({ rejected_at: t.clock.now(), rejected_reason: 'refused' }).execute();
    // As the server calls it every hour (a version that dates the purge takes `now` too).
    const purge: (db: StoreDb, before: number, now: number) => Promise<number> = purgeUnconfirmedTasks;

    expect(await purge(store.db, t.clock.now() + 1, t.clock.now() + 1)).toBe(1);

    expect(await storedKeys(store.db)).toEqual([]);
    expect(await rowsAsText(store)).not.toContain('Philippa');
  });

  it('are deleted past their 24 hours by the retention job, whatever the process that stored them', async () => {
    const key = await createKey(t);
    const early = await consented(t, 'Evangeline Day-Old');
    expect((await resolveCheck(t, key, early.wxAssignedTaskUuid, 'early')).statusCode).toBe(200);
    t.clock.advance(2 * HOUR);
    const late = await consented(t, 'Lavinia Still-Fresh');
    expect((await resolveCheck(t, key, late.wxAssignedTaskUuid, 'late')).statusCode).toBe(200);
    await deliverEverything(store, t.clock.now());
    t.clock.advance(22 * HOUR + 1);

    // A restart: another store on the same database, whose retention job runs as it starts, with
    // TASK_DATA_RETENTION_DAYS=1 (the early task's answers go too).
    const restarted = await t.database.openAnother();
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
  let opened: { db: Kysely<DatabaseSchema>; schema?: string; remove(): Promise<void> } | undefined;
  afterEach(async () => {
    await opened?.db.destroy();
    await opened?.remove();
    opened = undefined;
  });

  async function openRaw(): Promise<NonNullable<typeof opened>> {
    if (dialect === 'sqlite') {
      const directory = mkdtempSync(join(tmpdir(), 'ptk-migrate-'));
      const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: new Database(join(directory, 'old.db')) }) });
      return { db, remove: async () => rmSync(directory, { recursive: true, force: true }) };
    }
    const schema = `test_${randomBytes(8).toString('hex')}`;
    const admin = new pg.Client({ connectionString: testPostgresUrl });
    await admin.connect();
    await admin.query(`create schema "${schema}"`);
    await admin.end();
    const pool = new pg.Pool({ connectionString: testPostgresUrl, options: `-c search_path=${schema}` });
    return {
      db: new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) }),
      schema,
      async remove() {
        const client = new pg.Client({ connectionString: testPostgresUrl });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.end();
      },
    };
  }

  it('links each stored answer to the task its body holds, and leaves refusals and claims unlinked', async () => {
    opened = await openRaw();
    const { db } = opened;
    const migrator = new Migrator({
      db,
      provider: storeMigrations(dialect as StoreDialect),
      ...(opened.schema === undefined ? {} : { migrationTableSchema: opened.schema }),
    });
    expect((await migrator.migrateTo('0013_pending_index_per_lane')).error).toBeUndefined();
    const task = randomUUID().toUpperCase();
    const row = (idempotencyKey: string, status: number | null, body: unknown) => ({
      ...{ partner_key_id: 'k', idempotency_key: idempotencyKey, request_hash: 'h', status },
      ...{ body: body === null ? null : JSON.stringify(body), created_at: 1 },
    });
    const oldTables = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await oldTables
      .insertInto('partner_idempotency')
      .values([
        row('answered', 200, { task: { id: 'ours', assignedTaskUuid: task, stepData: { consent: { fullName: 'A' } } } }),
        row('refused', 409, { error: { code: 'step_not_awaiting_partner', message: '…', field: 'stepId' } }),
        row('claimed', null, null),
      ])
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const rows = await db.selectFrom('partner_idempotency').select(['idempotency_key', 'task_key']).orderBy('idempotency_key').execute();
    expect(rows.map((stored) => [stored.idempotency_key, stored.task_key])).toEqual([
      ['answered', task.toLowerCase()],
      ['claimed', null],
      ['refused', null],
    ]);
  });
});
