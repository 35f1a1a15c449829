import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeWrite } from '@partner-task-kit/server/store/health.repository';
import { findTaskById } from '@partner-task-kit/server/store/tasks.repository';
import { openStore } from '@partner-task-kit/server/store/store';
import { testDatabases, testPostgresUrl } from '../helpers/test-databases';
import type { TestDatabase } from '../helpers/test-databases';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices } from '../helpers/task-services';

const now = 1_700_000_000_000;

describe.each(testDatabases)('opening the store on $name', (engine) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await engine.open();
  });
  afterEach(() => t.cleanup());

  it('creates the tasks, task_history and outbox tables', async () => {
    for (const table of ['tasks', 'task_history', 'outbox'] as const) {
      const rows = await t.store.db.selectFrom(table).selectAll().execute();
      expect(rows, table).toEqual([]);
    }
    expect(await probeWrite(t.store.db, Date.now())).toEqual({ ok: true });
  });

  it('reopens an existing database without failing, re-running migrations or losing data', async () => {
    const task = await taskServices(t.store, { clock: new ManualClock(now) }).openStored();
    await t.store.close();
    const reopened = await t.openStore();
    expect(await findTaskById(reopened.db, task.id)).toEqual(task);
    const migrations = await sql<{ name: string }>`select name from kysely_migration`.execute(reopened.db);
    expect(migrations.rows.map((row) => row.name)).toEqual([
      '0001_initial_schema',
      '0002_sent_at_from_outbox',
      '0003_readiness_heartbeat',
      '0004_tenants',
      '0005_pending_indexes',
      '0006_fewer_outbox_indexes',
      '0007_task_key_and_confirmation',
      '0008_partner_events',
      '0009_partner_api',
      '0010_partner_webhooks',
      '0011_lane_led_outbox_indexes',
      '0012_data_retention',
      '0013_pending_index_per_lane',
      '0014_task_removals',
      '0015_partner_answers_by_task',
      '0016_task_offers',
      '0017_sensitive_reveals',
      '0018_uploads',
      '0019_upload_removals',
      '0020_upload_locks',
      '0021_offer_checks',
      '0022_graded_step_failed',
    ]);
  });

  it('returns epoch-millisecond columns as numbers', async () => {
    const task = await taskServices(t.store, { clock: new ManualClock(now) }).openStored();
    expect(task.createdAt).toBe(now);
    expect(typeof task.createdAt).toBe('number');
  });

  it('closes cleanly, and a second close is harmless', async () => {
    await t.store.close();
    await expect(t.store.close()).resolves.toBeUndefined();
    expect(await probeWrite(t.store.db, Date.now())).toMatchObject({ ok: false, reason: 'unreachable' });
  });

  it('lets two stores be open side by side', async () => {
    const other = await engine.open();
    try {
      await taskServices(t.store, { clock: new ManualClock(now) }).openStored();
      expect(await other.store.db.selectFrom('tasks').selectAll().execute()).toEqual([]);
    } finally {
      await other.cleanup();
    }
  });
});

describe('the SQLite store', () => {
  const sqlite = testDatabases.find((engine) => engine.name === 'sqlite')!;

  it('creates the missing parent directory and runs in WAL mode with synchronous NORMAL and a 4 MiB page cache by default', async () => {
    const t = await sqlite.open();
    try {
      expect(existsSync(dirname(t.location))).toBe(true);
      const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(t.store.db);
      const synchronous = await sql<{ synchronous: number }>`pragma synchronous`.execute(t.store.db);
      const foreignKeys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(t.store.db);
      expect(journal.rows[0]?.journal_mode).toBe('wal');
      expect(synchronous.rows[0]?.synchronous).toBe(1); // NORMAL
      expect(foreignKeys.rows[0]?.foreign_keys).toBe(1);
      // Negative: KiB, not pages. The rest of the file is read through the OS's cache, outside the server's RSS.
      const cacheSize = await sql<{ cache_size: number }>`pragma cache_size`.execute(t.store.db);
      expect(cacheSize.rows[0]?.cache_size).toBe(-4096);
    } finally {
      await t.cleanup();
    }
  });

  it('takes the write lock at BEGIN, so another process waits (busy_timeout) instead of failing mid-transaction', async () => {
    const t = await sqlite.open();
    const otherProcess = new Database(t.location, { timeout: 0 });
    try {
      await t.store.db.transaction().execute(async (trx) => {
        await trx.selectFrom('tasks').selectAll().execute();
        expect(() => otherProcess.exec('begin immediate')).toThrow(/locked|busy/i);
      });
      otherProcess.exec('begin immediate');
      otherProcess.exec('rollback');
    } finally {
      otherProcess.close();
      await t.cleanup();
    }
  });

  it('syncs every commit (synchronous FULL) when asked, to survive power loss', async () => {
    const t = await sqlite.open({ sqliteSynchronous: 'FULL' });
    try {
      const synchronous = await sql<{ synchronous: number }>`pragma synchronous`.execute(t.store.db);
      expect(synchronous.rows[0]?.synchronous).toBe(2);
    } finally {
      await t.cleanup();
    }
  });
});

describe('the Postgres store', () => {
  const postgres = testDatabases.find((engine) => engine.name === 'postgres')!;

  it('parses bigint as numbers for its own pool only, leaving pg global parsers alone', async () => {
    const t = await postgres.open();
    try {
      const { rows } = await sql<{ big: unknown }>`select 9007199254740991::bigint as big`.execute(t.store.db);
      expect(rows[0]?.big).toBe(Number.MAX_SAFE_INTEGER);
      expect(pg.types.getTypeParser(pg.types.builtins.INT8, 'text')('42')).toBe('42');
    } finally {
      await t.cleanup();
    }
  });

  it('rejects a schema name that is not a plain identifier', async () => {
    const opening = openStore({ kind: 'postgres', url: testPostgresUrl }, { schema: 'x; drop table tasks' });
    await expect(opening).rejects.toThrow(/plain lower-case identifier/);
  });
});
