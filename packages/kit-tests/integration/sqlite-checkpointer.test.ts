import { closeSync, mkdtempSync, openSync, readdirSync, readlinkSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAFETY_NET_AUTOCHECKPOINT_PAGES, startSqliteCheckpointer } from '@partner-task-kit/server/store/sqlite-checkpointer';
import { openStore, type Store } from '@partner-task-kit/server/store/store';

/** Pages the test writes: well past SQLite's default threshold (1,000), well short of the safety net's. */
const PAGES_WRITTEN = 3_000;

/** Files of this process open below `folder` (Linux: /proc/self/fd), the database and its -wal and -shm. */
function openFilesUnder(folder: string): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(join('/proc/self/fd', fd));
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(`${folder}/`));
}

describe('the background WAL checkpoint (SQLite)', () => {
  let directory: string;
  let store: Store;
  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-checkpoint-'));
    store = await openStore({ kind: 'sqlite', filename: join(directory, 'store.db') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('leaves the inline checkpoint to a safety-net threshold far above what one request writes', async () => {
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db);
    expect(rows[0]?.wal_autocheckpoint).toBe(SAFETY_NET_AUTOCHECKPOINT_PAGES);
    expect(SAFETY_NET_AUTOCHECKPOINT_PAGES).toBeGreaterThan(PAGES_WRITTEN * 2);
  });

  it('copies committed pages into the database file without the main connection doing it', async () => {
    const databaseFile = join(directory, 'store.db');
    const before = statSync(databaseFile).size;
    await sql`create table filler (body blob not null)`.execute(store.db);
    // 3,000 rows of 4 KB: at least 3,000 pages in the WAL. The main connection would checkpoint only at 20,000.
    for (let index = 0; index < PAGES_WRITTEN; index += 1) {
      await sql`insert into filler (body) values (randomblob(4000))`.execute(store.db);
    }
    // The thread copies them in the background: on a busy machine (and disk) that may take longer than a few seconds.
    await expect.poll(() => statSync(databaseFile).size, { timeout: 20_000, interval: 50 }).toBeGreaterThan(before + PAGES_WRITTEN * 4000);
  }, 60_000);

  it('stops its thread when the store closes, so a closed store holds no file open', async () => {
    const databaseFile = join(directory, 'store.db');
    expect(openFilesUnder(directory)).toContain(databaseFile);
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
    // The thread shares this process's file table: had it kept its connection, the file would still be listed.
    expect(openFilesUnder(directory)).toEqual([]);
  });

  it('rewinds the WAL under steady writes, where PASSIVE alone would let it grow', async () => {
    // A bare connection with no auto-checkpoint at all: only the thread can keep this WAL bounded.
    const filename = join(directory, 'steady.db');
    const writer = new Database(filename);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table filler (body blob not null)');
    const checkpointer = startSqliteCheckpointer({ filename, synchronous: 'NORMAL', intervalMs: 20, restartFrames: 300 });
    const insert = writer.prepare('insert into filler (body) values (randomblob(3000))');
    /** Frames the last checkpoint copied: the WAL index (-shm) holds it after its two 48-byte headers. */
    const backfilled = () => {
      const info = Buffer.alloc(4);
      const fd = openSync(`${filename}-shm`, 'r');
      try {
        readSync(fd, info, 0, 4, 96);
      } finally {
        closeSync(fd);
      }
      return info.readUInt32LE(0);
    };
    try {
      // The steady writes begin once the thread has checkpointed: starting a worker thread takes a busy machine long
      // enough for the writes below to fill the WAL before the thread could ever look at it.
      for (let index = 0; index < 5; index += 1) insert.run();
      await expect.poll(backfilled, { timeout: 30_000, interval: 20 }).toBeGreaterThan(0);
      // About 3,000 pages written a few at a time, with the event loop free in between, as a busy server writes.
      for (let index = 0; index < 3_000; index += 1) {
        insert.run();
        if (index % 5 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(statSync(`${filename}-wal`).size).toBeLessThan(1_500 * 4096);
    } finally {
      await checkpointer.stop();
      writer.close();
    }
  }, 60_000);
});
