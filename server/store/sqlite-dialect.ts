import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import type { SqliteDatabase } from 'kysely';
import { SAFETY_NET_AUTOCHECKPOINT_PAGES, startSqliteCheckpointer, type SqliteCheckpointer } from './sqlite-checkpointer';

export interface SqliteStoreOptions {
  /**
   * In WAL mode, NORMAL survives a crash of the process (kill -9: the WAL is in the OS's hands at commit) but may lose
   * the last commits on power loss or an OS crash; FULL fsyncs the WAL on every commit and survives both. NORMAL is the
   * default: better-sqlite3 is synchronous, so each fsync stalls the whole event loop, and measured here FULL cut
   * delivery throughput and the step endpoint by more than half and pushed paced p50 latency from ~10 ms to ~500 ms
   * (BENCHMARKS.md). Deployments that must survive power loss set FULL, or use Postgres.
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
}

export function createSqliteDialect(filename: string, options: SqliteStoreOptions = {}): OpenedSqlite {
  const inMemory = filename === ':memory:' || filename === '';
  if (!inMemory) mkdirSync(dirname(filename), { recursive: true });
  const database = new Database(filename);
  const synchronous = options.sqliteSynchronous === 'FULL' ? 'FULL' : 'NORMAL';
  try {
    database.pragma('journal_mode = WAL');
    database.pragma(`synchronous = ${synchronous}`);
    database.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.sqliteBusyTimeoutMs ?? 5000))}`);
    database.pragma('foreign_keys = ON');
    if (!inMemory) database.pragma(`wal_autocheckpoint = ${SAFETY_NET_AUTOCHECKPOINT_PAGES}`);
  } catch (error) {
    database.close();
    throw error;
  }
  const checkpointer = inMemory
    ? undefined
    : startSqliteCheckpointer({ filename, synchronous, ...(options.onCheckpointError ? { onError: options.onCheckpointError } : {}) });
  return { dialect: new SqliteDialect({ database: beginImmediate(database) }), checkpointer };
}

/** Distinct SQL texts kept prepared; Kysely emits one text per query shape, so a few dozen cover the whole app. */
const STATEMENT_CACHE_SIZE = 200;

/**
 * Kysely prepares every query anew, and preparing costs about as much as running a small query; the statements are
 * cached by their text (a prepared statement is reusable with new parameters). Kysely begins SQLite transactions DEFERRED. A deferred transaction that reads and then writes cannot wait for
 * another process's write lock (SQLite returns SQLITE_BUSY at once, busy_timeout does not apply), which a CLI run
 * beside the server would hit. IMMEDIATE takes the write lock at BEGIN, where busy_timeout does apply.
 */
function beginImmediate(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare: (text: string) => {
      const sql = text.trim().toLowerCase() === 'begin' ? 'begin immediate' : text;
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
