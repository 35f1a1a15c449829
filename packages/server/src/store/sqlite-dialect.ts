import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDialect, type SqliteDatabase } from 'kysely';
import { SAFETY_NET_AUTOCHECKPOINT_PAGES, startSqliteCheckpointer, type SqliteCheckpointer } from './sqlite-checkpointer.ts';

export interface SqliteStoreOptions {
  /**
   * In WAL mode, NORMAL survives a crash of the process (kill -9: the WAL is in the OS's hands at commit) but may lose
   * the last commits on power loss or an OS crash; FULL fsyncs the WAL on every commit and survives both. NORMAL is the
   * default, SQLite's own advice for WAL mode: better-sqlite3 is synchronous, so each fsync stalls the whole event
   * loop, for as long as the disk takes. Group commit (group-commit.ts) pays one fsync per batch, so on a disk with a
   * fast fsync FULL costs the step endpoint little (BENCHMARKS.md has it under both); on a slow one every request
   * waits. Deployments that must survive power loss set FULL, or use Postgres (docs/operations.md#durability).
   */
  sqliteSynchronous?: 'FULL' | 'NORMAL';
  /** How long a writer waits for another process's write lock before failing with SQLITE_BUSY. */
  sqliteBusyTimeoutMs?: number;
  /** Where a failed background checkpoint is reported (sqlite-checkpointer.ts). */
  onCheckpointError?: (message: string) => void;
}

export interface OpenedSqlite {
  dialect: SqliteDialect;
  /** Absent for an in-memory database, which has no WAL. */
  checkpointer: SqliteCheckpointer | undefined;
  /** Statements other than plain reads issued so far on the connection (group-commit.ts isolates failures with it). */
  writesIssued: () => number;
  /** Whether the connection is inside a transaction now (SQLite may have rolled one back by itself). */
  inTransaction: () => boolean;
}

export function createSqliteDialect(filename: string, options: SqliteStoreOptions = {}): OpenedSqlite {
  const inMemory = filename === ':memory:' || filename === '';
  if (!inMemory) mkdirSync(dirname(filename), { recursive: true });
  const synchronous = options.sqliteSynchronous === 'FULL' ? 'FULL' : 'NORMAL';
  const open = () => openDatabase(filename, inMemory, synchronous, options);
  const startCheckpointer = () =>
    startSqliteCheckpointer({ filename, synchronous, ...(options.onCheckpointError ? { onError: options.onCheckpointError } : {}) });

  let database = open();
  // SQLite opens a file it cannot write (a read-only volume after a crash, a file owned by someone else) read-only
  // without a word, and that connection stays read-only for good. Noticed here, it is reopened once the file can be
  // written, so readiness and writes recover without a restart.
  let readOnly = !inMemory && !writable(filename);
  // A checkpoint needs a writable file; its connection would also keep SQLite's shared memory of the file read-only.
  let checkpointer = inMemory || readOnly ? undefined : startCheckpointer();
  const reopenIfWritable = () => {
    if (!readOnly || database.inTransaction || !writable(filename)) return;
    // Every connection of this process to the file must close first: a new one would share the read-only one's state.
    database.close();
    database = open();
    readOnly = false;
    checkpointer = startCheckpointer();
  };
  const counter = { writes: 0 };
  const connection = cachedStatements(
    counter,
    () => {
      reopenIfWritable();
      return database;
    },
    () => {
      readOnly = false; // closed for good: nothing to reopen
      database.close();
    },
  );
  return {
    dialect: new SqliteDialect({ database: connection }),
    checkpointer: inMemory
      ? undefined
      : { stop: async () => checkpointer?.stop(), truncate: async () => (await checkpointer?.truncate()) ?? false },
    writesIssued: () => counter.writes,
    inTransaction: () => database.inTransaction,
  };
}

function openDatabase(filename: string, inMemory: boolean, synchronous: 'FULL' | 'NORMAL', options: SqliteStoreOptions): Database.Database {
  const database = new Database(filename);
  try {
    database.pragma('journal_mode = WAL');
    database.pragma(`synchronous = ${synchronous}`);
    database.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.sqliteBusyTimeoutMs ?? 5000))}`);
    database.pragma('foreign_keys = ON');
    database.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    // Every cell freed inside a page is zeroed (FAST costs no extra I/O), so a row rewritten or deleted leaves no old
    // copy of its values behind; an erasure also zeroes whole freed pages (docs/operations.md#erasure).
    database.pragma('secure_delete = FAST');
    if (!inMemory) database.pragma(`wal_autocheckpoint = ${SAFETY_NET_AUTOCHECKPOINT_PAGES}`);
  } catch (error) {
    database.close();
    throw error;
  }
  return database;
}

/**
 * SQLite's own page cache, per connection (its default here: 16 MiB). Pages it does not hold come from the operating
 * system's file cache, which the process does not pay for in its resident memory. Measured with packages/kit-tests/bench/api.ts on a
 * 44 MB database: 4 MiB instead of 16 took 8-11 MB off the server's peak RSS under load (135 vs 143-147 MB) and cost
 * no throughput (803-833 step requests/s against 745-781), nor did 64 MiB make a claim or an acknowledgement faster.
 */
const PAGE_CACHE_KIB = 4096;

/** Whether this process may open the file for writing; root included (a read-only mount, an immutable file). */
function writable(filename: string): boolean {
  try {
    accessSync(filename, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Distinct SQL texts kept prepared; Kysely emits one text per query shape, so a few dozen cover the whole app. */
const STATEMENT_CACHE_SIZE = 200;

/**
 * Kysely prepares every query anew, and preparing costs about as much as running a small query; the statements are
 * cached by their text (a prepared statement is reusable with new parameters), per connection. Kysely begins SQLite
 * transactions DEFERRED. A deferred transaction that reads and then writes cannot wait for another process's write
 * lock (SQLite returns SQLITE_BUSY at once, busy_timeout does not apply), which a CLI run beside the server would hit.
 * IMMEDIATE takes the write lock at BEGIN, where busy_timeout does apply.
 */
function cachedStatements(counter: { writes: number }, current: () => Database.Database, close: () => void): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  let preparedOn: Database.Database | undefined;
  return {
    close: () => {
      statements.clear();
      close();
    },
    prepare: (text: string) => {
      const database = current();
      if (database !== preparedOn) {
        statements.clear();
        preparedOn = database;
      }
      const sql = rewrite(text, database);
      // Kysely prepares each statement right before running it. Anything but a plain select counts, conservatively.
      if (!/^\s*select\b/i.test(sql)) counter.writes += 1;
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = database.prepare(sql);
        // Oldest first out: a Map iterates in insertion order.
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

function rewrite(text: string, database: Database.Database): string {
  const command = text.trim().toLowerCase();
  if (command === 'begin') return 'begin immediate';
  // On a full disk (or an I/O error) SQLite rolls the transaction back itself; Kysely's ROLLBACK would then fail with
  // "cannot rollback - no transaction is active", and that error would replace the real cause in the answer and the log.
  if (command === 'rollback' && !database.inTransaction) return 'select 0 where 0';
  return text;
}
