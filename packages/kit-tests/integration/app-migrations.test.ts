import { sql, type Migration, type MigrationProvider } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreDb, StoreDialect } from '@partner-task-kit/server/store/database-schema';
import { storeMigrations } from '@partner-task-kit/server/store/migrations';
import { migrateToLatest, NewerDatabaseError, type MigrationTarget } from '@partner-task-kit/server/store/schema-migration';
import { openStore, openStoreWhenReachable, type Store } from '@partner-task-kit/server/store/store';
import { findTaskById } from '@partner-task-kit/server/store/tasks.repository';
import {
  testDatabase,
  testDatabases,
  testPostgresUrl,
  type BlankTestDatabase,
  type TestDatabase,
  type TestDatabaseEngine,
} from '../helpers/test-databases';
import { taskServices } from '../helpers/task-services';

/** An app's table that points at one of the engine's: the app's migrations run after the engine's. */
const loyaltyPoints: Migration = {
  up: async (db) => {
    await db.schema
      .createTable('loyalty_points')
      .addColumn('task_id', 'text', (col) => col.primaryKey().references('tasks.id').onDelete('cascade'))
      .addColumn('points', 'integer', (col) => col.notNull())
      .execute();
  },
};
const createTable = (table: string): Migration => ({
  up: async (db) => {
    await db.schema
      .createTable(table)
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .execute();
  },
});
const appMigrations = { '0001_loyalty_points': loyaltyPoints };

const engineNames = async () => Object.keys(await storeMigrations('sqlite').getMigrations()).sort();

/** The engine's next release: its migrations and one more, named after its last as the next release's would be. */
async function nextEngineRelease(dialect: StoreDialect): Promise<{ name: string; provider: MigrationProvider }> {
  const released = await storeMigrations(dialect).getMigrations();
  const last = Number.parseInt(Object.keys(released).sort().at(-1)!.slice(0, 4), 10);
  const name = `${String(last + 1).padStart(4, '0')}_notes`;
  return { name, provider: { getMigrations: async () => ({ ...released, [name]: createTable('engine_notes') }) } };
}

async function recorded(db: StoreDb, table: 'kysely_migration' | 'app_migration'): Promise<Array<{ name: string; timestamp: string }>> {
  const { rows } = await sql<{ name: string; timestamp: string }>`select name, timestamp from ${sql.table(table)} order by name`.execute(
    db,
  );
  return rows;
}
const namesIn = async (db: StoreDb, table: 'kysely_migration' | 'app_migration') => (await recorded(db, table)).map((row) => row.name);

/** The tables of the store's own schema (Postgres) or file (SQLite): another test's schema is none of ours. */
async function hasTable(store: Store, table: string): Promise<boolean> {
  const { rows } =
    store.dialect === 'sqlite'
      ? await sql`select name from sqlite_master where type = 'table' and name = ${table}`.execute(store.db)
      : await sql`select table_name from information_schema.tables where table_schema = current_schema() and table_name = ${table}`.execute(
          store.db,
        );
  return rows.length === 1;
}

/** The migration target a store opened on this test database has, with the engine's and the app's lists given. */
function targetOf(
  engine: TestDatabaseEngine,
  t: TestDatabase,
  store: Store,
  lists: Omit<MigrationTarget, 'db' | 'schema'>,
): MigrationTarget {
  return { db: store.db, schema: engine.name === 'postgres' ? t.location : undefined, ...lists };
}
const provide = (migrations: Record<string, Migration>): MigrationProvider => ({ getMigrations: async () => migrations });

describe.each(testDatabases)("the app's own migrations on $name", (engine) => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it("applies an app migration after the engine's, recorded in app_migration alone, its table on the engine's", async () => {
    t = await engine.open({ appMigrations });
    const { db } = t.store;
    expect(await namesIn(db, 'app_migration')).toEqual(['0001_loyalty_points']);
    expect(await namesIn(db, 'kysely_migration')).toEqual(await engineNames());
    // The app's table is there and its foreign key reaches the engine's tasks table.
    const task = await taskServices(t.store).openStored();
    await sql`insert into loyalty_points (task_id, points) values (${task.id}, ${10})`.execute(db);
    await expect(sql`insert into loyalty_points (task_id, points) values (${'no-such-task'}, ${1})`.execute(db)).rejects.toThrow(
      /foreign key/i,
    );
    // A restart finds both sides current and runs nothing again; the same list handed over as a Kysely provider.
    const before = { engine: await recorded(db, 'kysely_migration'), app: await recorded(db, 'app_migration') };
    const reopened = await t.openStore({ appMigrations: provide(appMigrations) });
    expect({ engine: await recorded(reopened.db, 'kysely_migration'), app: await recorded(reopened.db, 'app_migration') }).toEqual(before);
  });

  it('migrates a database made before apps had migrations of their own, leaving the engine record as it was', async () => {
    // Opened with no app migrations: the engine alone, as every database before the app side existed.
    t = await engine.open();
    expect(await hasTable(t.store, 'app_migration')).toBe(false);
    const task = await taskServices(t.store).openStored();
    const engineRecord = await recorded(t.store.db, 'kysely_migration');
    await t.store.close();

    const upgraded = await t.openStore({ appMigrations });
    expect(await recorded(upgraded.db, 'kysely_migration')).toEqual(engineRecord);
    expect(await namesIn(upgraded.db, 'app_migration')).toEqual(['0001_loyalty_points']);
    expect(await hasTable(upgraded, 'loyalty_points')).toBe(true);
    expect(await findTaskById(upgraded.db, task.id)).toEqual(task);
  });

  it("applies the engine's next migration although the app has migrations of the same and later names", async () => {
    const next = await nextEngineRelease(engine.name);
    // The app numbered its own as it liked: one with the very name of the engine's next, one after it.
    const app = { ...appMigrations, [next.name]: createTable('app_notes'), '9000_app_later': createTable('app_later') };
    t = await engine.open({ appMigrations: app });
    const appRecord = await recorded(t.store.db, 'app_migration');
    expect(appRecord.map((row) => row.name)).toEqual(['0001_loyalty_points', next.name, '9000_app_later']);

    const applied = await migrateToLatest(targetOf(engine, t, t.store, { engine: next.provider, app: provide(app) }));
    expect(applied).toEqual([{ side: 'engine', name: next.name }]);
    expect(await namesIn(t.store.db, 'kysely_migration')).toEqual([...(await engineNames()), next.name]);
    expect(await recorded(t.store.db, 'app_migration')).toEqual(appRecord);
    expect(await hasTable(t.store, 'engine_notes')).toBe(true);
  });

  it('refuses an app migration the code does not know, naming the app, before anything of either side is applied', async () => {
    t = await engine.open({ appMigrations: { ...appMigrations, '0002_loyalty_tiers': createTable('loyalty_tiers') } });
    const next = await nextEngineRelease(engine.name);
    // This code has the engine's next migration pending, and only the first of the app's two.
    const refused = migrateToLatest(targetOf(engine, t, t.store, { engine: next.provider, app: provide(appMigrations) }));
    await expect(refused).rejects.toThrow(NewerDatabaseError);
    await expect(refused).rejects.toMatchObject({ side: 'app', unknown: ['0002_loyalty_tiers'] });
    await expect(refused).rejects.toThrow("the app's code is older than the database: it has app migration 0002_loyalty_tiers");
    expect(await namesIn(t.store.db, 'kysely_migration')).toEqual(await engineNames());
    expect(await hasTable(t.store, 'engine_notes')).toBe(false);

    // A start refuses the same; the engine's own commands, which pass no app migrations, leave the app's side alone.
    await expect(t.openStore({ appMigrations })).rejects.toMatchObject({ side: 'app', unknown: ['0002_loyalty_tiers'] });
    await expect(t.openStore()).resolves.toBeDefined();
  });

  it("refuses an engine migration the code does not know as the engine's, whatever the app has", async () => {
    t = await engine.open({ appMigrations });
    await sql`insert into kysely_migration (name, timestamp) values (${'9999_from_a_newer_engine'}, ${new Date().toISOString()})`.execute(
      t.store.db,
    );
    const refused = t.openStore({ appMigrations });
    await expect(refused).rejects.toMatchObject({ side: 'engine', unknown: ['9999_from_a_newer_engine'] });
    await expect(refused).rejects.toThrow("the engine's code is older than the database");
  });
});

describe("the app's own migrations on Postgres", () => {
  const blanks: BlankTestDatabase[] = [];
  afterEach(async () => {
    for (const blank of blanks.splice(0)) await blank.cleanup();
  });
  /** An empty schema: the stores the test opens make the tables. */
  const emptySchema = async () => {
    const blank = await testDatabase('postgres').create();
    blanks.push(blank);
    return blank.location;
  };

  it("lets instances start at once on an empty schema: all open, each side's migrations recorded once", async () => {
    const schema = await emptySchema();
    const database = { kind: 'postgres', url: testPostgresUrl } as const;
    // In one process they reach the migrations within one turn of the event loop, closer together than processes.
    const opened = await Promise.allSettled(Array.from({ length: 5 }, () => openStore(database, { schema, appMigrations })));
    const stores = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      expect(opened.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))).toEqual([]);
      const { db } = stores[0]!;
      const times = async (table: 'kysely_migration' | 'app_migration') =>
        (
          await sql<{
            name: string;
            times: number;
          }>`select name, count(*)::int as times from ${sql.table(table)} group by name order by name`.execute(db)
        ).rows;
      expect(await times('kysely_migration')).toEqual((await engineNames()).map((name) => ({ name, times: 1 })));
      expect(await times('app_migration')).toEqual([{ name: '0001_loyalty_points', times: 1 }]);
      expect(await hasTable(stores[0]!, 'loyalty_points')).toBe(true);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  }, 60_000);

  it('does not wait for a database whose app migrations are newer than the code: waiting would not change it', async () => {
    const schema = await emptySchema();
    const database = { kind: 'postgres', url: testPostgresUrl } as const;
    await (
      await openStore(database, { schema, appMigrations: { ...appMigrations, '0002_loyalty_tiers': createTable('loyalty_tiers') } })
    ).close();
    const retries: unknown[] = [];
    const started = Date.now();
    await expect(
      openStoreWhenReachable(database, { schema, appMigrations }, { timeoutMs: 30_000, onRetry: (failure) => retries.push(failure.error) }),
    ).rejects.toMatchObject({ side: 'app', unknown: ['0002_loyalty_tiers'] });
    expect(retries).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
