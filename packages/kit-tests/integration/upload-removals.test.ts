import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@partner-task-kit/server/api-error';
import type { DatabaseSchema, StoreDialect } from '@partner-task-kit/server/store/database-schema';
import { storeMigrations } from '@partner-task-kit/server/store/migrations';
import { claimUnsavedUploads, claimUploadsOfTasks, markUploadSaved } from '@partner-task-kit/server/store/upload-removals.repository';
import { completeUpload, findUpload, insertUpload } from '@partner-task-kit/server/store/uploads.repository';
import { keepSavedUploads } from '@partner-task-kit/server/task-progress/saved-uploads';
import { testDatabases, testPostgresUrl, type TestDatabase } from '../helpers/test-databases';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices } from '../helpers/task-services';

/*
 * The two moves of a removal and the mark of a saved step (docs/operations.md#files), on the rows alone: what decides
 * which files stay when a step and the job meet.
 */

const now = Date.parse('2026-03-01T09:00:00.000Z');
const DAY = 24 * 60 * 60_000;

describe.each(testDatabases)('upload rows on $name', (engine) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await engine.open();
  });
  afterEach(() => t.cleanup());

  async function upload(taskId: string, complete = true) {
    const id = randomBytes(16).toString('base64url');
    await insertUpload(t.store.db, { id, taskId, attempt: 1, stepId: 'photos', field: 'front', declaredBytes: 10, createdAt: now });
    if (complete) await completeUpload(t.store.db, { id, contentType: 'image/jpeg', bytes: 8, sha256: 'ab'.repeat(32), completedAt: now });
    return id;
  }

  const newTask = () => taskServices(t.store, { clock: new ManualClock(now) }).open({}, { workflow: 'work-authorization' });

  const describeFile = (id: string) => ({ id, contentType: 'image/jpeg', bytes: 8, sha256: 'ab'.repeat(32) });

  it('refuses a step naming an upload claimed for removal since it was checked, as one that is gone', async () => {
    const task = await newTask();
    const id = await upload(task.id);
    expect(await claimUnsavedUploads(t.store.db, { createdBefore: now + DAY, limit: 10 })).toBe(1);

    const error = await keepSavedUploads(t.store.db, { taskId: task.id, files: { front: describeFile(id) }, now }).catch(
      (thrown: unknown) => thrown,
    );

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'invalid_step_data', field: 'data.front' });
    expect(await findUpload(t.store.db, id)).toBeUndefined();
  });

  it('keeps the first time a step named an upload, and no claim of forgotten uploads takes it', async () => {
    const task = await newTask();
    const named = await upload(task.id);
    const forgotten = await upload(task.id, false);
    await keepSavedUploads(t.store.db, { taskId: task.id, files: { front: describeFile(named) }, now });
    await keepSavedUploads(t.store.db, { taskId: task.id, files: { front: describeFile(named) }, now: now + 5 });
    // Another task cannot mark it, whatever id it is sent.
    expect(await markUploadSaved(t.store.db, { taskId: (await newTask()).id, id: forgotten, now })).toBe(false);

    expect(await claimUnsavedUploads(t.store.db, { createdBefore: now + DAY, limit: 10 })).toBe(1);

    const rows = await t.store.db.selectFrom('uploads').select(['id', 'state', 'saved_at']).orderBy('state').execute();
    expect(rows.map((row) => [row.id, row.state, row.saved_at === null ? null : Number(row.saved_at)])).toEqual([
      [named, 'completed', now],
      [forgotten, 'removing', null],
    ]);
    // A claimed upload no longer completes: its remover may already have taken its bytes.
    expect(
      await completeUpload(t.store.db, { id: forgotten, contentType: 'image/jpeg', bytes: 8, sha256: 'cd'.repeat(32), completedAt: now }),
    ).toBe(false);
    expect(await claimUploadsOfTasks(t.store.db, [task.id])).toBe(1);
  });

  if (engine.name === 'postgres') {
    it('a claim that meets a step marking the same upload waits for it, and then leaves the upload', async () => {
      const task = await newTask();
      const id = await upload(task.id);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let marked!: () => void;
      const markWritten = new Promise<void>((resolve) => (marked = resolve));
      const step = t.store.db.transaction().execute(async (trx) => {
        expect(await markUploadSaved(trx, { taskId: task.id, id, now })).toBe(true);
        marked();
        // The step's transaction goes on (the task saved, its update written) while the job runs.
        await held;
      });
      await markWritten;
      const claim = claimUnsavedUploads(t.store.db, { createdBefore: now + DAY, limit: 10 });
      const first = await Promise.race([
        claim.then(() => 'claim ended'),
        new Promise((resolve) => setTimeout(() => resolve('claim waits'), 300)),
      ]);
      release();
      await step;

      expect(first).toBe('claim waits');
      expect(await claim).toBe(0);
      expect(await findUpload(t.store.db, id)).toMatchObject({ state: 'completed' });
    });
  }
});

describe.each(['sqlite', 'postgres'] as const)('migration 0019 on %s', (dialect) => {
  let db: Kysely<DatabaseSchema>;
  let remove: () => Promise<void>;
  let schema: string | undefined;
  afterEach(async () => {
    await db.destroy();
    await remove();
  });

  it('counts uploads completed before it as named by a step, and leaves unfinished ones to their day', async () => {
    if (dialect === 'sqlite') {
      const directory = mkdtempSync(join(tmpdir(), 'ptk-migrate-'));
      db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: new Database(join(directory, 'old.db')) }) });
      remove = async () => rmSync(directory, { recursive: true, force: true });
    } else {
      schema = `test_${randomBytes(8).toString('hex')}`;
      const admin = new pg.Client({ connectionString: testPostgresUrl });
      await admin.connect();
      await admin.query(`create schema "${schema}"`);
      await admin.end();
      db = new Kysely<DatabaseSchema>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: testPostgresUrl, options: `-c search_path=${schema}` }) }),
      });
      remove = async () => {
        const client = new pg.Client({ connectionString: testPostgresUrl });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.end();
      };
    }
    const migrator = new Migrator({
      db,
      provider: storeMigrations(dialect as StoreDialect),
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    expect((await migrator.migrateTo('0018_uploads')).error).toBeUndefined();
    const row = { task_id: 't', attempt: 1, step_id: 'photos', field: 'front', declared_bytes: 10, created_at: now };
    await db
      .insertInto('uploads')
      .values([
        { ...row, id: 'completed-before', state: 'completed', content_type: 'image/jpeg', bytes: 8, sha256: 'ab', completed_at: now + 1 },
        { ...row, id: 'unfinished-before', state: 'uploading' },
      ])
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const rows = await db.selectFrom('uploads').select(['id', 'saved_at']).orderBy('id').execute();
    expect(rows.map((found) => [found.id, found.saved_at === null ? null : Number(found.saved_at)])).toEqual([
      ['completed-before', now + 1],
      ['unfinished-before', null],
    ]);
  });
});
