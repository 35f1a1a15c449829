import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { storeMigrations } from '@partner-task-kit/server/store/migrations';
import { openStore } from '@partner-task-kit/server/store/store';
import { copyProject } from '../helpers/project-copy';
import { appServerFlags, runAppServerEntry } from '../helpers/run-command';
import { launchServer, platformEnv } from '../helpers/server-process';

/** A partner's checkout with one migration of its own: this project, its server/app-migrations.ts filled in. */
const appMigrationsFile = `import type { Migration } from 'kysely';

export const appMigrations: Record<string, Migration> = {
  '0001_loyalty_points': {
    up: async (db) => {
      await db.schema
        .createTable('loyalty_points')
        .addColumn('task_id', 'text', (col) => col.primaryKey().references('tasks.id'))
        .addColumn('points', 'integer', (col) => col.notNull())
        .execute();
    },
  },
};
`;

const thisProject = join(import.meta.dirname, '../../..');
const directory = mkdtempSync(join(tmpdir(), 'ptk-app-migrations-'));
let partner = '';
let emulator: RunningEmulator | undefined;

beforeAll(async () => {
  partner = await copyProject();
  writeFileSync(join(partner, 'server', 'app-migrations.ts'), appMigrationsFile);
  emulator = await startEmulator();
}, 60_000);
afterAll(async () => {
  await emulator?.close();
  if (partner) rmSync(partner, { recursive: true, force: true });
  rmSync(directory, { recursive: true, force: true });
});

/** The app's entry, as `npm run migrate` and `npm run doctor` run it. */
const serverEntryOf = (project: string) => join(project, 'server', 'main.ts');
const migrateProject = (project: string, file: string, ...args: string[]) =>
  runAppServerEntry(serverEntryOf(project), { DATABASE_URL: file }, 30_000, ['migrate', ...args]);
const doctorOf = (project: string, file: string) => runAppServerEntry(serverEntryOf(project), { DATABASE_URL: file }, 30_000, ['doctor']);
const appRecord = (file: string) => {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite.prepare('select name from app_migration order by name').all();
  } finally {
    sqlite.close();
  }
};

describe("an app's own migration through the app's entries", () => {
  it("npm run doctor and npm run migrate name it as the app's: pending, applied, then current", async () => {
    // Before the file exists the check lists every migration, the engine's and then the app's, and creates nothing.
    const unborn = await migrateProject(partner, join(directory, 'not-yet.db'), '--check');
    expect(unborn.code).toBe(1);
    const engine = Object.keys(await storeMigrations('sqlite').getMigrations()).sort();
    expect(unborn.stdout.trim().split('\n').slice(1)).toEqual([
      ...engine.map((name) => `  ${name}`),
      '  app migration 0001_loyalty_points',
    ]);
    expect(existsSync(join(directory, 'not-yet.db'))).toBe(false);

    const file = join(directory, 'engine-only.db');
    // A database the engine alone has migrated, as every one before apps had migrations of their own.
    await (await openStore({ kind: 'sqlite', filename: file })).close();

    const before = await doctorOf(partner, file);
    expect(before.stdout).toMatch(/^ok {3}database migrations: current/m);
    expect(before.stdout).toMatch(/^ok {3}app migrations: 1 pending \(0001_loyalty_points\): the server applies them when it starts$/m);

    const check = await migrateProject(partner, file, '--check');
    expect(check).toMatchObject({ code: 1, stdout: `1 migration(s) pending on ${file}:\n  app migration 0001_loyalty_points\n` });
    const applied = await migrateProject(partner, file);
    expect(applied).toMatchObject({ code: 0, stdout: `applied app migration 0001_loyalty_points\n${file} is current\n` });
    expect(appRecord(file)).toEqual([{ name: '0001_loyalty_points' }]);

    const after = await doctorOf(partner, file);
    expect(after.stdout).toMatch(/^ok {3}app migrations: current: every app migration of this version of the app is applied$/m);
  }, 90_000);

  it("this repository's own commands, whose app has no migration, refuse that database naming the app", async () => {
    const file = join(directory, 'partner.db');
    expect((await migrateProject(partner, file)).code).toBe(0);

    for (const args of [[], ['--check']]) {
      const refused = await migrateProject(thisProject, file, ...args);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toContain("the app's code is older than the database: it has app migration 0001_loyalty_points");
    }
    const report = await doctorOf(thisProject, file);
    expect(report.stdout).toMatch(
      /^FAIL app migrations: the database has app migrations this version of the app does not know \(0001_loyalty_points\)/m,
    );
    expect(report.stdout).toMatch(/next step: Run the newer version of the app against this database/);
    expect(report.code).toBe(1);
  }, 90_000);

  it("the app's server applies it at its start, and a server without it then refuses to start, naming the app", async () => {
    const file = join(directory, 'served.db');
    const env = platformEnv(emulator!.url, { DATABASE_URL: file });
    const served = await launchServer(env, [process.execPath, ...appServerFlags, serverEntryOf(partner)]);
    try {
      await served.healthy(60_000);
    } finally {
      await served.kill('SIGTERM');
    }
    expect(appRecord(file)).toEqual([{ name: '0001_loyalty_points' }]);

    // This repository's app, whose server/main.ts hands over no migration of its own.
    const older = await launchServer(env, [process.execPath, ...appServerFlags, serverEntryOf(thisProject)]);
    const exited = new Promise<number | null>((resolve) => {
      if (older.child.exitCode !== null) resolve(older.child.exitCode);
      else older.child.once('exit', (exitCode) => resolve(exitCode));
    });
    // A server that starts after all is stopped, not left running past the test.
    const code = await Promise.race([exited, sleep(60_000).then(() => 'still running after 60 s')]);
    await older.kill('SIGKILL');
    expect(code).toBe(1);
    const lines = older
      .output()
      .split('\n')
      .filter((line) => line.includes('could not start'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("the app's code is older than the database: it has app migration 0001_loyalty_points");
  }, 120_000);
});
