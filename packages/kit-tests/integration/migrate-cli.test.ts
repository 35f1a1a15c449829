import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { storeMigrations } from '@partner-task-kit/server/store/migrations';
import { kitCommandOn } from '../helpers/run-command';

const directory = mkdtempSync(join(tmpdir(), 'ptk-migrate-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const known = async () => Object.keys(await storeMigrations('sqlite').getMigrations()).sort();

describe('npm run migrate', () => {
  it('checks, applies, and finds nothing more to apply', async () => {
    const file = join(directory, 'fresh.db');
    const all = await known();

    const before = await kitCommandOn(file, 'migrate', ['--check']);
    expect(before.code).toBe(1);
    expect(before.stdout.trim().split('\n').slice(1)).toEqual(all.map((name) => `  ${name}`));
    expect(before.stdout).toMatch(new RegExp(`^${all.length} migration\\(s\\) pending`));
    // A check changes nothing, not even by creating the file.
    expect(existsSync(file)).toBe(false);

    const applied = await kitCommandOn(file, 'migrate');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.trim().split('\n')).toEqual([...all.map((name) => `applied ${name}`), `${file} is current`]);

    const after = await kitCommandOn(file, 'migrate', ['--check']);
    expect(after).toMatchObject({ code: 0, stdout: `no migration pending: ${file} is current\n` });
    const again = await kitCommandOn(file, 'migrate');
    expect(again).toMatchObject({ code: 0, stdout: `nothing to apply: ${file} is current\n` });
  }, 60_000);

  it('refuses a database migrated by a newer version, naming the migration, and changes nothing', async () => {
    const file = join(directory, 'newer.db');
    expect((await kitCommandOn(file, 'migrate')).code).toBe(0);
    const sqlite = new Database(file);
    sqlite
      .prepare('insert into kysely_migration (name, timestamp) values (?, ?)')
      .run('9999_from_a_newer_version', new Date().toISOString());
    sqlite.close();
    for (const args of [[], ['--check']]) {
      const result = await kitCommandOn(file, 'migrate', args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('9999_from_a_newer_version');
      expect(result.stderr).toContain('upgrade the code');
    }
    const reopened = new Database(file, { readonly: true });
    expect(reopened.prepare('select count(*) as rows from kysely_migration').get()).toEqual({ rows: (await known()).length + 1 });
    reopened.close();
  }, 60_000);

  it('answers an unknown option with one line and exit code 2', async () => {
    const result = await kitCommandOn(join(directory, 'never.db'), 'migrate', ['--force']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^migrate: .*--force/);
    expect(existsSync(join(directory, 'never.db'))).toBe(false);
  });
});
