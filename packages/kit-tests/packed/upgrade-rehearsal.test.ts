import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeMigrations } from '@partner-task-kit/server/store/migrations';
import { kitPackages, type AppManifest } from '@partner-task-kit/vite-plugin/cli/upgrade-plan';
import { runIn } from '../helpers/project-copy';
import {
  completeTasksBeside,
  expectKitFromTarballs,
  expectSuccess,
  installedVersion,
  installKit,
  kitVersion,
  minutes,
  nativeSqlite,
  packKit,
  repoRoot,
  scaffoldApp,
  type Tarballs,
} from './packed-kit';

/**
 * The upgrade a partner makes (docs/upgrading.md#the-upgrade-step-by-step), rehearsed: an app made by the previous
 * release's packed scaffolder, with a migration of its own, its database migrated by that release; then upgraded to
 * this checkout's packed packages by `partner-task-kit upgrade --from`, nothing else of the app changed. The upgraded
 * app passes its `npm test`, `npm run migrate` brings the engine's side forward while the app's side and its rows stay
 * as they were, and a task runs to `completed` on that database.
 *
 * The previous release is the commit previous-release.json names, packed from git as it was: the registry of a
 * partner's npm, which this machine cannot publish to. A clone without that commit (a shallow one) cannot rehearse.
 */
const previous = JSON.parse(readFileSync(join(import.meta.dirname, 'previous-release.json'), 'utf8')) as {
  version: string;
  commit: string;
};
const haveCommit = (await runIn(repoRoot, 'git', ['cat-file', '-e', `${previous.commit}^{commit}`], 30_000)).code === 0;
if (!haveCommit) {
  process.stderr.write(`upgrade rehearsal skipped: this clone lacks ${previous.commit}, the previous release (a shallow clone?)\n`);
}

/** The partner's own migrations: the first made on the previous release, the second after the upgrade. */
const firstMigration = `
  '0001_partner_notes': {
    up: async (db) => {
      await db.schema
        .createTable('partner_notes')
        .addColumn('id', 'integer', (column) => column.primaryKey())
        .addColumn('note', 'text', (column) => column.notNull())
        .execute();
    },
  },`;
const secondMigration = `
  '0002_partner_notes_author': {
    up: async (db) => {
      await db.schema.alterTable('partner_notes').addColumn('author', 'text').execute();
    },
  },`;

function writeAppMigrations(appDir: string, entries: string): void {
  writeFileSync(
    join(appDir, 'server/app-migrations.ts'),
    `import type { Migration } from 'kysely';\n\nexport const appMigrations: Record<string, Migration> = {${entries}\n};\n`,
  );
}

function recordedNames(database: string, table: 'kysely_migration' | 'app_migration'): string[] {
  const db = new Database(database, { readonly: true });
  try {
    return (db.prepare(`select name from ${table} order by name`).all() as { name: string }[]).map((row) => row.name);
  } finally {
    db.close();
  }
}

let work: string;
let previousTarballs: Tarballs;
let installEnvironment: Record<string, string>;

beforeAll(async () => {
  if (!haveCommit) return;
  work = realpathSync(mkdtempSync(join(tmpdir(), 'ptk-upgrade-')));
  installEnvironment = await nativeSqlite(join(work, 'prebuilds'));
  // The previous release's checkout, from git: its own lock file, installed and built as it was released.
  const checkout = join(work, 'previous-kit');
  expectSuccess(await runIn(repoRoot, 'git', ['worktree', 'add', '--detach', checkout, previous.commit], minutes(1)), 'git worktree add');
  expect(kitVersion(checkout)).toBe(previous.version);
  const install = await runIn(checkout, 'npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], minutes(8), installEnvironment);
  expectSuccess(install, "npm ci in the previous release's checkout");
  previousTarballs = await packKit(checkout, join(work, 'previous'));
  // This checkout's packages, where `partner-task-kit upgrade --from` takes them.
  await packKit(repoRoot, join(work, 'current'));
}, minutes(20));

afterAll(async () => {
  if (!work) return;
  await runIn(repoRoot, 'git', ['worktree', 'remove', '--force', join(work, 'previous-kit')], minutes(1));
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!haveCommit)(`an app made with the previous release (${previous.version}), upgraded by partner-task-kit upgrade`, () => {
  it(
    'passes its tests, migrates its database forward with its own migrations in place, and completes a task on it',
    async () => {
      const appDir = join(work, 'partner-app');
      const database = join(work, 'partner-app.db');
      const databaseEnvironment = { ...installEnvironment, DATABASE_URL: database };
      // That release's scaffolder named the kit's packages by a caret range; the upgrade writes one exact version.
      await scaffoldApp(appDir, previousTarballs, previous.version, [], `^${previous.version}`);
      await installKit(appDir, previousTarballs, installEnvironment);
      expect(installedVersion(appDir, '@partner-task-kit/server')).toBe(previous.version);

      // On the previous release: the app's first migration, applied with the engine's, and a row of the app's own.
      writeAppMigrations(appDir, firstMigration);
      expectSuccess(await runIn(appDir, 'npm', ['run', 'migrate'], minutes(2), databaseEnvironment), 'npm run migrate (previous)');
      const engineBefore = recordedNames(database, 'kysely_migration');
      expect(recordedNames(database, 'app_migration')).toEqual(['0001_partner_notes']);
      const db = new Database(database);
      db.prepare('insert into partner_notes (id, note) values (1, ?)').run('written on the previous release');
      db.close();

      // The upgrade, as the partner runs it: `partner-task-kit upgrade` of the new release moves every kit package the
      // app depends on, testing with them, in one install, and records the version (docs/upgrading.md#the-upgrade-step-by-step).
      // The previous release's bin has no such command: the new one runs, as `npx --package` runs it for such an app.
      // The app's own files stay as they were, and its next migration follows its first.
      const current = kitVersion(repoRoot);
      const upgradeCommand = [join(repoRoot, 'packages/vite-plugin/dist/bin.js'), 'upgrade', '--from', join(work, 'current')];
      const upgrade = await runIn(appDir, 'node', upgradeCommand, minutes(6), installEnvironment);
      expectSuccess(upgrade, 'partner-task-kit upgrade');
      for (const name of kitPackages) expect(installedVersion(appDir, name), name).toBe(current);
      expectKitFromTarballs(appDir);
      const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as AppManifest;
      expect(manifest.partnerTaskKit).toEqual({ version: current });
      expect(Object.keys(manifest.devDependencies ?? {})).toContain('@partner-task-kit/testing');
      // What to read: each package's changelog sections the move crosses, then the checks.
      expect(upgrade.output).toContain(`${previous.version} -> ${current}`);
      if (current !== previous.version) expect(upgrade.output).toContain(`# @partner-task-kit/testing\n## ${current}`);
      expect(upgrade.output).toContain('npm run migrate -- --check');

      // The move from the registries to folders (docs/upgrading.md#a-workflow-is-a-folder): the installed release's
      // command does the mechanical part, then names what is left. Left here is the example's test, which looked the
      // workflow up in the registries: the partner's edit, made here, takes it from the workflows as the server gets
      // them, which the new template's vitest config serves.
      const moved = await runIn(
        appDir,
        join(appDir, 'node_modules/.bin/partner-task-kit'),
        ['upgrade-folders'],
        minutes(3),
        installEnvironment,
      );
      expect(existsSync(join(appDir, 'src/workflows/registry.ts')), moved.output).toBe(false);
      expect(existsSync(join(appDir, 'src/workflows/safety-training/steps/quiz.tsx')), moved.output).toBe(true);
      const exampleTest = join(appDir, 'tests/app/safety-training-workflow.test.ts');
      expect(moved.output).toContain('tests/app/safety-training-workflow.test.ts');
      const lookUp = (what: string) => `workflows.find((workflow) => workflow.definition.id === 'safety-training')?.${what}`;
      writeFileSync(
        exampleTest,
        readFileSync(exampleTest, 'utf8')
          .replace(
            "import { findWorkflow } from '../../src/workflows/registry';\n",
            "import workflows from 'virtual:partner-task-kit/workflows';\n",
          )
          .replace("import { serverWorkflows } from '../../src/workflows/registry.server';\n", '')
          .replace("findWorkflow('safety-training')?.definition", lookUp('definition'))
          .replace("serverWorkflows.find('safety-training')?.server", lookUp('server')),
      );
      copyFileSync(join(repoRoot, 'packages/create-partner-task-kit/template-base/vitest.config.ts'), join(appDir, 'vitest.config.ts'));
      expectSuccess(await runIn(appDir, 'npm', ['run', 'typecheck'], minutes(3)), "the moved app's type check");
      writeAppMigrations(appDir, `${firstMigration}${secondMigration}`);
      expectSuccess(await runIn(appDir, 'npm', ['test'], minutes(5)), "the upgraded app's npm test");

      // `migrate -- --check` names what the upgrade brings and changes nothing; `migrate` applies it.
      const engineNow = Object.keys(await storeMigrations('sqlite').getMigrations()).sort();
      const engineNew = engineNow.filter((name) => !engineBefore.includes(name));
      expect(
        engineBefore.every((name) => engineNow.includes(name)),
        'the current release knows every released migration',
      ).toBe(true);
      const check = await runIn(appDir, 'npm', ['run', 'migrate', '--', '--check'], minutes(2), databaseEnvironment);
      expect(check.code, check.output).toBe(1);
      for (const name of [...engineNew, '0002_partner_notes_author']) expect(check.output).toContain(name);
      expect(recordedNames(database, 'app_migration')).toEqual(['0001_partner_notes']);
      expectSuccess(await runIn(appDir, 'npm', ['run', 'migrate'], minutes(2), databaseEnvironment), 'npm run migrate (current)');
      expect(recordedNames(database, 'kysely_migration')).toEqual(engineNow);
      expect(recordedNames(database, 'app_migration')).toEqual(['0001_partner_notes', '0002_partner_notes_author']);
      const upgraded = new Database(database, { readonly: true });
      expect(upgraded.prepare('select id, note, author from partner_notes').all()).toEqual([
        { id: 1, note: 'written on the previous release', author: null },
      ]);
      upgraded.close();

      // The upgraded app's `npm start` on that database: a task of its example through to completed.
      const browser = await completeTasksBeside(appDir, ['safety-training'], database);
      expectSuccess(browser, 'the browser spec against the upgraded app');
      expect(browser.output).toMatch(/1 passed/);
    },
    minutes(25),
  );
});
