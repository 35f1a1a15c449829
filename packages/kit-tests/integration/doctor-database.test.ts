import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '@partner-task-kit/server/store/store';
import { kitCommandOn } from '../helpers/run-command';
import { freePort } from '../helpers/server-process';

const directory = mkdtempSync(join(tmpdir(), 'ptk-doctor-db-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('npm run doctor: the database', () => {
  it('passes on a database the server has migrated, and says so per check', async () => {
    const filename = join(directory, 'current.db');
    await (await openStore({ kind: 'sqlite', filename })).close();
    const result = await kitCommandOn(filename, 'doctor');
    expect(result.stdout).toMatch(/^ok {3}database reachable: SQLite file .*current\.db answers$/m);
    expect(result.stdout).toMatch(/^ok {3}database migrations: current/m);
    expect(result.stdout).toMatch(/^ok {3}database writable: a write succeeded/m);
    expect(result.code).toBe(0);
  });

  it('says a missing file is created at the first start, and does not create it', async () => {
    const filename = join(directory, 'not-yet', 'fresh.db');
    const result = await kitCommandOn(filename, 'doctor');
    expect(result.stdout).toMatch(/^ok {3}database: SQLite file .*fresh\.db does not exist yet: the server creates it/m);
    expect(existsSync(filename)).toBe(false);
    expect(result.code).toBe(0);
  });

  it('names a file that is not a database', async () => {
    const filename = join(directory, 'notes.db');
    writeFileSync(filename, 'these are notes, not a database '.repeat(100));
    const result = await kitCommandOn(filename, 'doctor');
    expect(result.stdout).toMatch(/^FAIL database reachable: .*notes\.db is not a SQLite database/m);
    expect(result.stdout).toMatch(/next step: Correct DATABASE_URL/);
    expect(result.code).toBe(1);
  });

  it('names a database migrated by a newer version', async () => {
    const filename = join(directory, 'newer.db');
    const store = await openStore({ kind: 'sqlite', filename });
    await sql`insert into kysely_migration (name, timestamp) values ('0099_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(store.db);
    await store.close();
    const result = await kitCommandOn(filename, 'doctor');
    expect(result.stdout).toMatch(
      /^FAIL database migrations: the database has migrations this version does not know \(0099_from_the_future\)/m,
    );
    expect(result.code).toBe(1);
  });

  it('names a Postgres that refuses the connection, without its password', async () => {
    const closedPort = await freePort();
    const result = await kitCommandOn(`postgres://partner:pa55word-not-shown@127.0.0.1:${closedPort}/tasks`, 'doctor');
    expect(result.stdout).toContain(
      `FAIL database reachable: the Postgres database at 127.0.0.1:${closedPort}/tasks refused the connection: nothing listens there`,
    );
    expect(result.stdout + result.stderr).not.toContain('pa55word-not-shown');
    expect(result.code).toBe(1);
  });
});
