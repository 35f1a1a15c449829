import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseSchema, StoreDialect } from '@partner-task-kit/server/store/database-schema';
import { storeMigrations } from '@partner-task-kit/server/store/migrations';
import { testPostgresUrl } from './test-databases';

/**
 * A fresh database with no schema and the engine's migrator over it, for a test that brings it to the schema of an
 * older release (`migrator.migrateTo`), writes rows as that release did, then migrates forward: what an upgrade meets.
 * On Postgres the database is a schema of its own inside `testPostgresUrl`.
 */
export interface OldDatabase {
  db: Kysely<DatabaseSchema>;
  migrator: Migrator;
  remove(): Promise<void>;
}

export async function openOldDatabase(dialect: StoreDialect): Promise<OldDatabase> {
  if (dialect === 'sqlite') {
    const directory = mkdtempSync(join(tmpdir(), 'ptk-migrate-'));
    const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: new Database(join(directory, 'old.db')) }) });
    return {
      db,
      migrator: new Migrator({ db, provider: storeMigrations(dialect) }),
      async remove() {
        await db.destroy();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  }
  const schema = `test_${randomBytes(8).toString('hex')}`;
  await onAdmin((client) => client.query(`create schema "${schema}"`));
  const db = new Kysely<DatabaseSchema>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: testPostgresUrl, options: `-c search_path=${schema}` }) }),
  });
  return {
    db,
    migrator: new Migrator({ db, provider: storeMigrations(dialect), migrationTableSchema: schema }),
    async remove() {
      await db.destroy();
      await onAdmin((client) => client.query(`drop schema if exists "${schema}" cascade`));
    },
  };
}

async function onAdmin(action: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  try {
    await action(client);
  } finally {
    await client.end();
  }
}
