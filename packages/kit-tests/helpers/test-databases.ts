import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '@partner-task-kit/server/store/store';
import type { Store, StoreOptions } from '@partner-task-kit/server/store/store';

/** The Postgres every store test also runs on; TEST_POSTGRES_URL points elsewhere (a CI service, another port). */
export const testPostgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh database for one test: nothing is shared between tests, so they can run in any order and in parallel. */
export interface TestDatabase {
  readonly store: Store;
  /** The database's location: the SQLite file, or the Postgres schema inside `testPostgresUrl`. */
  readonly location: string;
  /**
   * Opens one more store on the same database, as a second server process or a restart would. Closed by `cleanup`.
   * On SQLite, do not interleave explicit transactions of two stores in one process: the driver is synchronous, so a
   * writer waiting for the other's lock blocks the event loop the other needs to finish.
   */
  openAnother(options?: StoreOptions): Promise<Store>;
  /** Closes every store opened here and removes the database (the temporary directory, or the schema). */
  cleanup(): Promise<void>;
}

export interface TestDatabaseEngine {
  readonly name: 'sqlite' | 'postgres';
  open(options?: StoreOptions): Promise<TestDatabase>;
}

/** Use with `describe.each(testDatabases)('... on $name', (engine) => ...)` so a test runs on both engines. */
export const testDatabases: readonly TestDatabaseEngine[] = [
  { name: 'sqlite', open: openSqliteTestDatabase },
  { name: 'postgres', open: (options) => openPostgresTestDatabase(options) },
];

async function openSqliteTestDatabase(options: StoreOptions = {}): Promise<TestDatabase> {
  const directory = mkdtempSync(join(tmpdir(), 'ptk-store-'));
  // A subdirectory that does not exist yet: opening must create it, as it does for ./data on a fresh checkout.
  const filename = join(directory, 'data', 'store.db');
  return track(
    (more) => openStore({ kind: 'sqlite', filename }, { ...options, ...more }),
    filename,
    async () => rmSync(directory, { recursive: true, force: true }),
  );
}

/** A Postgres schema of its own; `connection` as DATABASE_URL's settings would set it (POSTGRES_PREPARED_STATEMENTS). */
export async function openPostgresTestDatabase(
  options: StoreOptions = {},
  connection: { preparedStatements?: boolean } = {},
): Promise<TestDatabase> {
  const schema = `test_${randomBytes(8).toString('hex')}`;
  return track(
    (more) => openStore({ kind: 'postgres', url: testPostgresUrl, ...connection }, { ...options, ...more, schema }),
    schema,
    () => dropSchema(schema),
  );
}

async function track(
  open: (options?: StoreOptions) => Promise<Store>,
  location: string,
  remove: () => Promise<void>,
): Promise<TestDatabase> {
  const stores: Store[] = [];
  const openTracked = async (options?: StoreOptions) => {
    const store = await open(options);
    stores.push(store);
    return store;
  };
  const cleanup = async () => {
    await Promise.allSettled(stores.map((store) => store.close()));
    await remove();
  };
  try {
    const store = await openTracked();
    return { store, location, openAnother: openTracked, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}
