import { Migrator, sql } from 'kysely';
import type { StoreDb, StoreDialect } from './database-schema';
import { storeMigrations } from './migrations';

/** Where Kysely keeps its record of the migrations applied: its table, in `schema` on Postgres. */
interface MigrationTarget {
  db: StoreDb;
  dialect: StoreDialect;
  /** Postgres: the schema of Kysely's migration table (the connection's current schema); undefined on SQLite. */
  schema: string | undefined;
}

/**
 * The database holds migrations this code does not know: a newer version of the server migrated it. Starting on it
 * would run old code against a schema it was not written for, and waiting would not change it.
 */
export class NewerDatabaseError extends Error {
  constructor(readonly unknown: readonly string[]) {
    super(`the database has migration${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}, which this code does not know`);
    this.name = 'NewerDatabaseError';
  }
}

export interface MigrationState {
  /** Migrations of this code the database has not had yet, in the order they apply. */
  pending: string[];
  /** Migrations the database has had that this code does not know: it was migrated by a newer version. */
  unknown: string[];
}

export async function migrationState(target: MigrationTarget): Promise<MigrationState> {
  const known = Object.keys(await storeMigrations(target.dialect).getMigrations()).sort();
  const applied = await appliedMigrations(target);
  return {
    pending: known.filter((name) => !applied.includes(name)),
    unknown: applied.filter((name) => !known.includes(name)),
  };
}

/**
 * Applies the pending migrations and returns their names (none when the schema is current). Safe when many
 * instances start at once on one database: on Postgres, Kysely's Migrator creates its tables tolerating a concurrent
 * creation and runs the migrations under a session advisory lock (`pg_advisory_lock`, held until they commit), so the
 * instances queue and each later one finds nothing pending; on SQLite one file serves one instance.
 */
export async function migrateToLatest(target: MigrationTarget): Promise<string[]> {
  // Before anything is written: an older server must not create its tables beside a newer one's.
  const before = await migrationState(target);
  if (before.unknown.length > 0) throw new NewerDatabaseError(before.unknown);
  const migrator = new Migrator({
    db: target.db,
    provider: storeMigrations(target.dialect),
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
    const after = await migrationState(target).catch(() => undefined);
    if (after && after.unknown.length > 0) throw new NewerDatabaseError(after.unknown);
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'setup';
    throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** The names in Kysely's migration table; none when the table does not exist yet (a database never started on). */
async function appliedMigrations({ db, schema }: MigrationTarget): Promise<string[]> {
  const table = schema === undefined ? 'kysely_migration' : `${schema}.kysely_migration`;
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
