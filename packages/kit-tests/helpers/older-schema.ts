import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseSchema } from '@partner-task-kit/server/store/database-schema';
import { storeMigrations } from '@partner-task-kit/server/store/migrations';
import { testDatabase, testPostgresUrl } from './test-databases';

/** A database at the schema an older release left, which a test fills with that release's rows. */
export interface OlderSchemaDatabase {
  /** Typed as today's schema; the older tables' columns as they were: `asOlderTables`. */
  readonly db: Kysely<DatabaseSchema>;
  /** Runs the migrations after the older release's, as the upgrade's first start does; throws on a failure. */
  migrateToLatest(): Promise<void>;
  cleanup(): Promise<void>;
}

/**
 * The engine's migrations up to `migration` on a fresh database, and no further: what an upgrade meets. Not a store,
 * whose opening would migrate it to the latest at once; rows are written in the older columns (raw), since no request
 * of today's code can write them.
 */
export async function databaseAtMigration(engine: 'sqlite' | 'postgres', migration: string): Promise<OlderSchemaDatabase> {
  const blank = await testDatabase(engine).create();
  let db: Kysely<DatabaseSchema>;
  if (engine === 'sqlite') {
    mkdirSync(dirname(blank.location), { recursive: true });
    db = new Kysely({ dialect: new SqliteDialect({ database: new Database(blank.location) }) });
  } else {
    const pool = new pg.Pool({ connectionString: testPostgresUrl, options: `-c search_path=${blank.location}` });
    db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  }
  const migrator = new Migrator({
    db,
    provider: storeMigrations(engine),
    ...(engine === 'postgres' ? { migrationTableSchema: blank.location } : {}),
  });
  const cleanup = async () => {
    await db.destroy();
    await blank.cleanup();
  };
  const migrated = await migrator.migrateTo(migration);
  if (migrated.error) {
    await cleanup();
    throw migrated.error;
  }
  return {
    db,
    async migrateToLatest() {
      const result = await migrator.migrateToLatest();
      if (result.error) throw result.error;
    },
    cleanup,
  };
}

/** The database's tables as they were, untyped: an older release's columns are not today's. */
export function asOlderTables(db: Kysely<DatabaseSchema>): Kysely<Record<string, Record<string, unknown>>> {
  return db as unknown as Kysely<Record<string, Record<string, unknown>>>;
}
