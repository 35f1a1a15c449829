import { Kysely, sql } from 'kysely';
import type { Config } from '../config.ts';
import type { DatabaseSchema, StoreDb, StoreDialect } from './database-schema.ts';
import { IgnoreRowLocksPlugin } from './ignore-row-locks-plugin.ts';
import { createGroupCommit, type Transact } from './group-commit.ts';
import { createPostgresDialect, createPostgresPool } from './postgres-dialect.ts';
import type { SqliteCheckpointer } from './sqlite-checkpointer.ts';
import { createSqliteDialect, type SqliteStoreOptions } from './sqlite-dialect.ts';
import { migrateToLatest, migrationTarget, NewerDatabaseError, type AppMigrations } from './schema-migration.ts';

export interface StoreOptions extends SqliteStoreOptions {
  /** Postgres only: a schema to create when missing and to use for every table (tests use one each). */
  schema?: string;
  /**
   * Postgres only: an idle connection of the pool failed (terminated by an administrator, a restart, the network).
   * The pool drops it and opens another when next needed; without a listener node-postgres would end the process.
   */
  onConnectionError?: (error: Error) => void;
  /**
   * The app's own migrations, applied after the engine's and recorded apart from them, in `app_migration`
   * (docs/operations.md#an-apps-own-migrations). Undefined leaves the app's side alone: neither applied nor checked.
   */
  appMigrations?: AppMigrations;
}

export interface Store {
  db: StoreDb;
  dialect: StoreDialect;
  /**
   * A write transaction for a request or the relay. On SQLite those asked for together share one commit
   * (group-commit.ts); on Postgres each is its own transaction on a pooled connection, and Postgres groups the commits
   * of concurrent transactions itself.
   */
  transact: Transact;
  /** Where the data lives, for log lines: the SQLite file, or Postgres's host:port/database (never its credentials). */
  location: string;
  /**
   * SQLite: empties the WAL into the database file and truncates it, from the checkpoint thread, so an erased value
   * is left in no old frame (docs/operations.md#erasure); false when it stayed busy. Elsewhere nothing to do: true.
   */
  truncateWal(): Promise<boolean>;
  /** Closes the pool or the file; safe to call more than once. */
  close(): Promise<void>;
}

/**
 * Opens the database and brings its schema up to date (docs/decisions/004-sqlite-by-default-postgres-for-scale.md: migrations run at start). Nothing is cached
 * at module level, so two stores can be open side by side (docs/architecture.md#dependencies-passed-in).
 */
export async function openStore(database: Config['database'], options: StoreOptions = {}): Promise<Store> {
  const { store, migrationSchema } = await openUnmigrated(database, options);
  try {
    await migrateToLatest(migrationTarget(store, migrationSchema, options.appMigrations));
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/**
 * Opens the database as openStore does but changes nothing in its schema: for `npm run doctor`, which looks at the
 * migrations without applying them. `migrationSchema` is where Kysely's migration tables are (Postgres).
 */
export async function openUnmigrated(
  database: Config['database'],
  options: StoreOptions = {},
): Promise<{ store: Store; migrationSchema: string | undefined }> {
  const opened = database.kind === 'sqlite' ? openSqlite(database.filename, options) : await openPostgres(database, options);
  const { db, dialect, migrationSchema, transact } = opened;
  const destroy = async () => {
    await db.destroy();
    await opened.checkpointer?.stop();
  };
  let closing: Promise<void> | undefined;
  const location = database.kind === 'sqlite' ? database.filename : postgresLocation(database.url);
  // No checkpointer: Postgres, or SQLite in memory, which has no WAL.
  const truncateWal = async () => (opened.checkpointer ? opened.checkpointer.truncate() : true);
  return { store: { db, dialect, transact, location, truncateWal, close: () => (closing ??= destroy()) }, migrationSchema };
}

interface OpenedDatabase {
  db: StoreDb;
  dialect: StoreDialect;
  transact: Transact;
  migrationSchema: string | undefined;
  checkpointer?: SqliteCheckpointer | undefined;
}

function openSqlite(filename: string, options: SqliteStoreOptions): OpenedDatabase {
  const { dialect, checkpointer, writesIssued, inTransaction } = createSqliteDialect(filename, options);
  const db = new Kysely<DatabaseSchema>({ dialect, plugins: [new IgnoreRowLocksPlugin()] });
  const transact = createGroupCommit(db, { writesIssued, inTransaction });
  return { db, dialect: 'sqlite', transact, migrationSchema: undefined, checkpointer };
}

/** host:port/database: enough for an operator to tell which database, and never the user's password. */
export function postgresLocation(url: string): string {
  try {
    const { hostname, port, pathname } = new URL(url);
    return `${hostname || 'localhost'}:${port || 5432}${pathname}`;
  } catch {
    return 'postgres'; // a form only pg's own parser reads (a socket path)
  }
}

async function openPostgres(database: Extract<Config['database'], { kind: 'postgres' }>, options: StoreOptions): Promise<OpenedDatabase> {
  const { url } = database;
  const { schema } = options;
  const pool = await createPostgresPool(url, schema);
  const onError = (error: Error) => options.onConnectionError?.(error);
  // Idle connections report to the pool; a connection checked out between two statements of a transaction reports
  // to its client, which needs a listener of its own (node-postgres ends the process on an unheard 'error').
  pool.on('connect', (client) => client.on('error', onError));
  // The pool repeats an idle client's error, already reported by the client's listener; it must be heard, not told twice.
  pool.on('error', () => {});
  const db = new Kysely<DatabaseSchema>({
    dialect: createPostgresDialect(pool, { preparedStatements: database.preparedStatements ?? true }),
  });
  try {
    if (schema !== undefined) await createSchemaIfMissing(db, schema);
    // Kysely's migrator looks for its table in every schema unless told which one; name ours explicitly so another
    // schema's migrations (another test, another app on the same database) are never taken for ours.
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(db);
    const current = rows[0]?.name;
    if (!current) throw new Error('Postgres has no current schema: check the search_path of the database user');
    const transact: Transact = (work) => db.transaction().execute(work);
    return { db, dialect: 'postgres', transact, migrationSchema: current };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

async function createSchemaIfMissing(db: StoreDb, schema: string): Promise<void> {
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
  } catch (error) {
    // Two processes creating the same schema at once can still collide inside Postgres despite IF NOT EXISTS.
    const code = (error as { code?: unknown }).code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}

export interface StartupWait {
  /** How long to keep trying before giving up; 0 tries once. */
  timeoutMs: number;
  /** Told about each failed try, so the operator sees the server waiting rather than a crash loop. */
  onRetry: (failure: { attempt: number; error: unknown; retryInMs: number }) => void;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Opens the store, waiting for a Postgres that is not up yet (a database container that starts after the server, a
 * failover) with backoff from 0.5 s to 10 s, instead of exiting at once and leaving a process manager to crash-loop.
 * SQLite is opened once: its failures (a path, a permission) do not fix themselves.
 */
export async function openStoreWhenReachable(database: Config['database'], options: StoreOptions, wait: StartupWait): Promise<Store> {
  const sleep = wait.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const started = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await openStore(database, options);
    } catch (error) {
      const retryInMs = Math.min(10_000, 500 * 2 ** (attempt - 1));
      // A database migrated by a newer version stays so however long we wait.
      if (database.kind === 'sqlite' || error instanceof NewerDatabaseError) throw error;
      if (Date.now() - started + retryInMs > wait.timeoutMs) throw error;
      wait.onRetry({ attempt, error, retryInMs });
      await sleep(retryInMs);
    }
  }
}
