import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { storeMigrations } from '@partner-task-kit/server/store/migrations';
import { copyProject } from './project-copy';

/** An expand-only migration: one column added with a default, which code that does not know it never notices. */
export interface AddedColumn {
  table: string;
  column: string;
  /** A constant: Postgres then adds the column without rewriting the table. */
  defaultValue: string;
}

export interface UpgradedProject {
  /** The new migration's name: after every migration of this checkout, as the next release's would be. */
  migration: string;
  /** Starts the copy's server as the helpers start this checkout's (tsx), for launchServer. */
  serverCommand: readonly string[];
  remove(): void;
}

/**
 * The next release of this checkout: a copy of the project (packages/kit-tests/helpers/project-copy.ts) whose server has one more
 * migration, adding `added`. The copy's migrations.ts becomes a module that takes every released migration from the
 * original, renamed beside it, and appends the new one; whatever else the original exports is passed on. The server
 * code is otherwise the same, so a test of it proves what a release that only expands the schema may rely on.
 */
export async function upgradedProject(added: AddedColumn): Promise<UpgradedProject> {
  const released = Object.keys(await storeMigrations('postgres').getMigrations()).sort();
  const last = Number.parseInt(released.at(-1)?.slice(0, 4) ?? '0', 10);
  const migration = `${String(last + 1).padStart(4, '0')}_rolling_upgrade_${added.column}`;
  const directory = await copyProject();
  const store = join(directory, 'packages', 'server', 'src', 'store');
  renameSync(join(store, 'migrations.ts'), join(store, 'migrations-released.ts'));
  writeFileSync(
    join(store, 'migrations.ts'),
    `import type { MigrationProvider } from 'kysely';
import type { StoreDialect } from './database-schema.ts';
import { storeMigrations as releasedMigrations } from './migrations-released.ts';

export * from './migrations-released.ts';

export function storeMigrations(dialect: StoreDialect): MigrationProvider {
  return {
    getMigrations: async () => ({
      ...(await releasedMigrations(dialect).getMigrations()),
      ${JSON.stringify(migration)}: {
        up: async (db) => {
          await db.schema
            .alterTable(${JSON.stringify(added.table)})
            .addColumn(${JSON.stringify(added.column)}, 'text', (column) => column.notNull().defaultTo(${JSON.stringify(added.defaultValue)}))
            .execute();
        },
      },
    }),
  };
}
`,
  );
  return {
    migration,
    // tsx resolves the packages through the tsconfig of the directory it runs in, this checkout's: told the copy's, it
    // loads the copy's packages, with their new migration.
    serverCommand: [
      '/usr/bin/env',
      `TSX_TSCONFIG_PATH=${join(directory, 'tsconfig.json')}`,
      process.execPath,
      '--import',
      'tsx',
      join(directory, 'packages', 'kit-tests', 'fixtures', 'kit-main.ts'),
    ],
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
