import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { StoreDb, StoreDialect } from './database-schema.ts';
import { storeMigrations } from './migrations.ts';

/** Whose migrations: the engine's own (packages/server/src/store/migrations.ts), or those of the app built on it. */
export type MigrationSide = 'engine' | 'app';

/** An app's migrations as it hands them over: a record by name, or any Kysely provider (FileMigrationProvider). */
export type AppMigrations = Record<string, Migration> | MigrationProvider;

/**
 * Each side records its migrations in tables of its own, so Kysely orders and checks each list apart: an app's next
 * migration never collides with the engine's next release, and neither refuses the other's names
 * (docs/operations.md#an-apps-own-migrations). The engine keeps Kysely's default tables, which every database made
 * before apps had a side of their own already has.
 */
const tablesOf: Record<MigrationSide, { migrationTableName: string; migrationLockTableName: string }> = {
  engine: { migrationTableName: 'kysely_migration', migrationLockTableName: 'kysely_migration_lock' },
  app: { migrationTableName: 'app_migration', migrationLockTableName: 'app_migration_lock' },
};

/** The database and the migrations of each side. */
export interface MigrationTarget {
  db: StoreDb;
  /** Postgres: the schema of the migration tables (the connection's current schema); undefined on SQLite. */
  schema: string | undefined;
  engine: MigrationProvider;
  /** Undefined leaves the app's table alone, neither migrated nor checked: the engine's own commands open so. */
  app?: MigrationProvider | undefined;
}

/** The target of a store: the engine's migrations for its dialect, and the app's when it gave them. */
export function migrationTarget(
  store: { db: StoreDb; dialect: StoreDialect },
  schema: string | undefined,
  appMigrations?: AppMigrations,
): MigrationTarget {
  return {
    db: store.db,
    schema,
    engine: storeMigrations(store.dialect),
    app: appMigrations === undefined ? undefined : asProvider(appMigrations),
  };
}

export function asProvider(migrations: AppMigrations): MigrationProvider {
  // A migration is an object, never a function: a record cannot be taken for a provider.
  if (typeof migrations.getMigrations === 'function') return migrations as MigrationProvider;
  const record = migrations as Record<string, Migration>;
  return { getMigrations: async () => record };
}

/**
 * The database holds migrations this side's code does not know: a newer version of it migrated the database. Starting
 * on it would run old code against a schema it was not written for, and waiting would not change it.
 */
export class NewerDatabaseError extends Error {
  constructor(
    readonly side: MigrationSide,
    readonly unknown: readonly string[],
  ) {
    const migrations = `${side === 'app' ? 'app ' : ''}migration${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`;
    super(`the ${side}'s code is older than the database: it has ${migrations}, which this code does not know`);
    this.name = 'NewerDatabaseError';
  }
}

export interface MigrationState {
  side: MigrationSide;
  /** Migrations of this code the database has not had yet, in the order they apply. */
  pending: string[];
  /** Migrations the database has had that this code does not know: it was migrated by a newer version. */
  unknown: string[];
}

/** The engine's state, then the app's when the target has the app's migrations. */
export async function migrationState(target: MigrationTarget): Promise<MigrationState[]> {
  const states = [await sideState(target, 'engine', target.engine)];
  if (target.app) states.push(await sideState(target, 'app', target.app));
  return states;
}

async function sideState(target: MigrationTarget, side: MigrationSide, provider: MigrationProvider): Promise<MigrationState> {
  const known = Object.keys(await provider.getMigrations()).sort();
  const applied = await appliedMigrations(target, side);
  return {
    side,
    pending: known.filter((name) => !applied.includes(name)),
    unknown: applied.filter((name) => !known.includes(name)),
  };
}

export interface AppliedMigration {
  side: MigrationSide;
  name: string;
}

/**
 * Applies the pending migrations, the engine's first (an app's may use the engine's tables), and returns them (none
 * when the schema is current). Safe when many instances start at once on one database: on Postgres, Kysely's Migrator
 * creates its tables tolerating a concurrent creation and runs each side's migrations under a session advisory lock
 * (`pg_advisory_lock`, held until they commit; one lock for both sides, taken for one at a time), so the instances
 * queue and each later one finds nothing pending; on SQLite one file serves one instance.
 */
export async function migrateToLatest(target: MigrationTarget): Promise<AppliedMigration[]> {
  // Before anything is written, on either side: an older server must not create its tables beside a newer one's.
  for (const { side, unknown } of await migrationState(target)) {
    if (unknown.length > 0) throw new NewerDatabaseError(side, unknown);
  }
  const applied = await migrateSide(target, 'engine', target.engine);
  if (target.app) applied.push(...(await migrateSide(target, 'app', target.app)));
  return applied;
}

async function migrateSide(target: MigrationTarget, side: MigrationSide, provider: MigrationProvider): Promise<AppliedMigration[]> {
  const migrator = new Migrator({
    db: target.db,
    provider,
    ...tablesOf[side],
    ...(target.schema === undefined ? {} : { migrationTableSchema: target.schema }),
  });
  let { error, results } = await migrator.migrateToLatest();
  // Kysely's introspection reads the tables of every schema; one dropped meanwhile by another user of the database
  // (3F000 invalid_schema_name, before any migration of ours ran) is a passing race, not our failure: look again.
  for (let retry = 0; retry < 3 && error !== undefined && !results?.length && codeOf(error) === '3F000'; retry += 1) {
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error !== undefined) {
    // A newer version may have migrated it between our look and Kysely's (its own check says "corrupted migrations").
    const after = await sideState(target, side, provider).catch(() => undefined);
    if (after && after.unknown.length > 0) throw new NewerDatabaseError(side, after.unknown);
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'setup';
    const what = side === 'engine' ? 'Database migration' : 'App migration';
    throw new Error(`${what} ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => ({ side, name: result.migrationName }));
}

/** The names in a side's migration table; none when the table does not exist yet (a side never migrated). */
async function appliedMigrations({ db, schema }: MigrationTarget, side: MigrationSide): Promise<string[]> {
  const name = tablesOf[side].migrationTableName;
  const table = schema === undefined ? name : `${schema}.${name}`;
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(db);
    return rows.map((row) => row.name);
  } catch (error) {
    // Postgres 42P01 undefined_table; SQLite says it in words. Anything else (the database away) is a real failure.
    if (codeOf(error) === '42P01' || (error instanceof Error && error.message.includes('no such table'))) return [];
    throw error;
  }
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown }).code;
}
