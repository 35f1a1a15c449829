import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { probeWrite, type WriteProbe } from './health.repository.ts';
import { migrationState, migrationTarget, type AppMigrations, type MigrationState } from './schema-migration.ts';
import { openUnmigrated, postgresLocation } from './store.ts';

/** What `npm run doctor` learns about the database, without changing it (no migration runs, no file is created). */
export type DatabaseInspection =
  | { state: 'no-file'; location: string; folderWritable: boolean }
  | { state: 'unreachable'; location: string; error: unknown }
  | {
      state: 'open';
      location: string;
      /** The engine's migrations, then the app's when it gave them: pending ones the server applies when it starts. */
      migrations: MigrationState[];
      /** The readiness probe's own write; `no-tables` before the server has created its tables. */
      write: WriteProbe | 'no-tables';
    };

export async function inspectDatabase(
  database: Config['database'],
  now: number,
  appMigrations?: AppMigrations,
): Promise<DatabaseInspection> {
  if (database.kind === 'sqlite' && database.filename !== ':memory:' && !existsSync(database.filename)) {
    // Opening would create it: say what the server would do instead.
    return { state: 'no-file', location: database.filename, folderWritable: writableFolder(dirname(resolve(database.filename))) };
  }
  let opened: Awaited<ReturnType<typeof openUnmigrated>>;
  try {
    opened = await openUnmigrated(database);
  } catch (error) {
    return { state: 'unreachable', location: locationOf(database), error };
  }
  const { store, migrationSchema } = opened;
  try {
    // A query that touches no table: a file that is not a database, or a server that refuses, fails here.
    await sql`select 1`.execute(store.db);
  } catch (error) {
    await store.close();
    return { state: 'unreachable', location: store.location, error };
  }
  try {
    const migrations = await migrationState(migrationTarget(store, migrationSchema, appMigrations));
    const engine = migrations.find((state) => state.side === 'engine');
    const write = engine?.pending.includes('0003_readiness_heartbeat') ? 'no-tables' : await probeWrite(store.db, now);
    return { state: 'open', location: store.location, migrations, write };
  } finally {
    await store.close();
  }
}

/** The nearest existing folder on the way to `folder` can be written: the server could create the file there. */
function writableFolder(folder: string): boolean {
  for (let current = folder; ; current = dirname(current)) {
    if (existsSync(current)) {
      try {
        accessSync(current, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    }
    if (dirname(current) === current) return false;
  }
}

function locationOf(database: Config['database']): string {
  return database.kind === 'sqlite' ? database.filename : postgresLocation(database.url);
}
