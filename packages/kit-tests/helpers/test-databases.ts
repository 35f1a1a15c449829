import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { openStore } from '@partner-task-kit/server/store/store';
import type { Store, StoreOptions } from '@partner-task-kit/server/store/store';

/** The Postgres every store test also runs on; TEST_POSTGRES_URL points elsewhere (a CI service, another port). */
export const testPostgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

type EngineName = 'sqlite' | 'postgres';

/**
 * A database of one test's own, empty: nothing is shared between tests, so they run in any order and in parallel. A
 * server or a command started on its `url` makes its tables, as at a first deployment.
 */
export interface BlankTestDatabase {
  readonly engine: EngineName;
  /** The SQLite file, or the Postgres schema inside `testPostgresUrl`. */
  readonly location: string;
  /** DATABASE_URL as a server process or a command reads it: the SQLite file, or Postgres with the schema. */
  readonly url: string;
  /**
   * Opens a store on it, migrated, as a server process or a command would (one more, as a second process or a restart
   * would, once one is open). Closed by `cleanup`. On SQLite, do not interleave explicit transactions of two stores in
   * one process: the driver is synchronous, so a writer waiting for the other's lock blocks the event loop the other
   * needs to finish.
   */
  openStore(options?: StoreOptions): Promise<Store>;
  /**
   * What someone holding the storage reads, as text (latin1, one character a byte): on SQLite every file of the
   * database (the WAL included: a value in a WAL frame or a free page is found), on Postgres every row of every table.
   */
  storedText(): Promise<string>;
  /** Closes every store opened here and removes the database (its directory, or its schema). */
  cleanup(): Promise<void>;
}

/** A test's database with a store open on it. */
export interface TestDatabase extends BlankTestDatabase {
  readonly store: Store;
}

export interface TestDatabaseEngine {
  readonly name: EngineName;
  /** An empty database, for a server or a command to open. */
  create(): Promise<BlankTestDatabase>;
  open(options?: StoreOptions): Promise<TestDatabase>;
}

/** The DATABASE_URL that puts a server or a command on `schema` of the test Postgres, with other `params` of pg's. */
export function postgresSchemaUrl(schema: string, params: Record<string, string> = {}): string {
  const url = new URL(testPostgresUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

async function createSqliteDatabase(): Promise<BlankTestDatabase> {
  const directory = mkdtempSync(join(tmpdir(), 'ptk-store-'));
  // A subdirectory that does not exist yet: opening must create it, as it does for ./data on a fresh checkout.
  const filename = join(directory, 'data', 'store.db');
  const files = () => {
    try {
      return readdirSync(dirname(filename)).map((name) => join(dirname(filename), name));
    } catch {
      return [];
    }
  };
  return tracking({
    engine: 'sqlite',
    location: filename,
    url: filename,
    open: (options) => openStore({ kind: 'sqlite', filename }, options),
    storedText: async () =>
      files()
        .map((file) => readFileSync(file).toString('latin1'))
        .join('\n'),
    remove: async () => rmSync(directory, { recursive: true, force: true }),
  });
}

async function createPostgresSchema(connection: { preparedStatements?: boolean } = {}): Promise<BlankTestDatabase> {
  const schema = `test_${randomBytes(8).toString('hex')}`;
  // Made here, not by the store: a server given DATABASE_URL uses the schema named in it, and creates none.
  await onTestPostgres((client) => client.query(`create schema "${schema}"`));
  return tracking({
    engine: 'postgres',
    location: schema,
    url: postgresSchemaUrl(schema),
    open: (options) => openStore({ kind: 'postgres', url: testPostgresUrl, ...connection }, { ...options, schema }),
    storedText: () =>
      onTestPostgres(async (client) => {
        const tables = await client.query<{ name: string }>(
          'select table_name as name from information_schema.tables where table_schema = $1',
          [schema],
        );
        const rows: string[] = [];
        for (const { name } of tables.rows) {
          const result = await client.query<{ row: string }>(`select t::text as row from "${schema}"."${name}" t`);
          rows.push(...result.rows.map(({ row }) => row));
        }
        return rows.join('\n');
      }),
    remove: () => onTestPostgres((client) => client.query(`drop schema if exists "${schema}" cascade`)).then(() => {}),
  });
}

/** A store on a fresh Postgres schema; `connection` as DATABASE_URL's settings would set it (POSTGRES_PREPARED_STATEMENTS). */
export async function openPostgresTestDatabase(
  options: StoreOptions = {},
  connection: { preparedStatements?: boolean } = {},
): Promise<TestDatabase> {
  return withStore(await createPostgresSchema(connection), options);
}

/** Use with `describe.each(testDatabases)('... on $name', (engine) => ...)` so a test runs on both engines. */
export const testDatabases: readonly TestDatabaseEngine[] = [
  { name: 'sqlite', create: createSqliteDatabase, open: async (options) => withStore(await createSqliteDatabase(), options) },
  { name: 'postgres', create: () => createPostgresSchema(), open: (options) => openPostgresTestDatabase(options) },
];

/** The engine of that name, for a test that runs on one only. */
export function testDatabase(name: EngineName): TestDatabaseEngine {
  return testDatabases.find((engine) => engine.name === name)!;
}

/** A blank database whose stores `cleanup` closes before it removes the database. */
function tracking(
  database: Omit<BlankTestDatabase, 'openStore' | 'cleanup'> & {
    open(options?: StoreOptions): Promise<Store>;
    remove(): Promise<void>;
  },
): BlankTestDatabase {
  const { open, remove, ...rest } = database;
  const stores: Store[] = [];
  return {
    ...rest,
    async openStore(options) {
      const store = await open(options);
      stores.push(store);
      return store;
    },
    async cleanup() {
      await Promise.allSettled(stores.map((store) => store.close()));
      await remove();
    },
  };
}

async function withStore(blank: BlankTestDatabase, options?: StoreOptions): Promise<TestDatabase> {
  try {
    return { ...blank, store: await blank.openStore(options) };
  } catch (error) {
    await blank.cleanup();
    throw error;
  }
}

/**
 * A whole database on the test Postgres, for what a schema cannot show (migrations of an empty database, a server's
 * own connections), dropped with its connections by `cleanup`.
 */
export async function createPostgresDatabase(
  prefix: string,
  /** The server it is made on, by its URL: the test Postgres, or the benchmarks' (BENCH_POSTGRES_URL). */
  on: string = testPostgresUrl,
): Promise<{ url: string; cleanup(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onTestPostgres((client) => client.query(`create database ${name}`), on);
  const url = new URL(on);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    cleanup: () => onTestPostgres((client) => client.query(`drop database if exists ${name} with (force)`), on).then(() => {}),
  };
}

/** One piece of work on a connection of its own to the test Postgres, closed after it. */
async function onTestPostgres<T>(work: (client: pg.Client) => Promise<T>, url: string = testPostgresUrl): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** One statement's rows, on a connection of its own to the Postgres database at `url`. */
export function queryPostgres<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  return onTestPostgres(async (client) => (await client.query<R>(text, values)).rows, url);
}
