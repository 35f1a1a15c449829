import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfigOrExit, type Config } from '../config.ts';
import { describeDatabaseFailure } from '../start-failure.ts';
import {
  asProvider,
  migrateToLatest,
  migrationState,
  migrationTarget,
  NewerDatabaseError,
  type MigrationSide,
} from '../store/schema-migration.ts';
import { storeMigrations } from '../store/migrations.ts';
import { openUnmigrated, type Store } from '../store/store.ts';
import type { CheckedKitApp } from '../kit-app.ts';

const usage = `Usage: npm run migrate [-- --check]
  (none)    applies the pending migrations to the database of DATABASE_URL, the engine's then the app's, naming each one
  --check   changes nothing: lists the pending migrations and exits 1 when there are some, 0 when none
The server also applies them when it starts; this runs them as a step of its own (a release job, an init container).`;

/** `npm run migrate`: the schema brought up to date, or checked, apart from starting a server (docs/operations.md#migrations). */
export async function migrateCommand(argv: string[], kit: CheckedKitApp): Promise<number> {
  let check: boolean;
  try {
    const { values } = parseArgs({ args: argv, strict: true, options: { check: { type: 'boolean' }, help: { type: 'boolean' } } });
    if (values.help === true) {
      process.stdout.write(`${usage}\n`);
      return 0;
    }
    check = values.check === true;
  } catch (error) {
    const problem = error instanceof Error ? error.message.split('. ')[0] : String(error);
    process.stderr.write(`migrate: ${problem}: expected no argument, or --check (npm run migrate -- --help)\n`);
    return 2;
  }
  const config = loadConfigOrExit();
  const { database } = config;
  if (check && database.kind === 'sqlite' && database.filename !== ':memory:' && !existsSync(database.filename)) {
    // Opening would create the file: a check changes nothing.
    const engine = Object.keys(await storeMigrations('sqlite').getMigrations()).sort();
    const app = kit.migrations === undefined ? [] : Object.keys(await asProvider(kit.migrations).getMigrations()).sort();
    const all = [...engine.map((name) => named('engine', name)), ...app.map((name) => named('app', name))];
    return pendingFound(all, `${database.filename} (not created yet)`);
  }
  let store: Store;
  let schema: string | undefined;
  try {
    ({ store, migrationSchema: schema } = await openUnmigrated(database));
  } catch (error) {
    return failed(error, database);
  }
  const target = migrationTarget(store, schema, kit.migrations);
  try {
    if (check) {
      const states = await migrationState(target);
      const newer = states.find((state) => state.unknown.length > 0);
      if (newer) return failed(new NewerDatabaseError(newer.side, newer.unknown), database);
      const pending = states.flatMap((state) => state.pending.map((name) => named(state.side, name)));
      if (pending.length > 0) return pendingFound(pending, store.location);
      process.stdout.write(`no migration pending: ${store.location} is current\n`);
      return 0;
    }
    const applied = await migrateToLatest(target);
    for (const { side, name } of applied) process.stdout.write(`applied ${named(side, name)}\n`);
    process.stdout.write(applied.length > 0 ? `${store.location} is current\n` : `nothing to apply: ${store.location} is current\n`);
    return 0;
  } catch (error) {
    return failed(error, database);
  } finally {
    await store.close();
  }
}

/** The engine's migrations by their name alone, as before apps had their own; the app's marked as such. */
function named(side: MigrationSide, name: string): string {
  return side === 'engine' ? name : `app migration ${name}`;
}

function pendingFound(pending: readonly string[], location: string): number {
  process.stdout.write(`${pending.length} migration(s) pending on ${location}:\n${pending.map((name) => `  ${name}\n`).join('')}`);
  return 1;
}

/** One line saying what to do, never DATABASE_URL itself (it may hold a password). */
function failed(error: unknown, database: Config['database']): number {
  process.stderr.write(`migrate: ${describeDatabaseFailure(error, database, 0)}\n`);
  return 1;
}
