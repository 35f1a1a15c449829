import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { storeMigrations } from '@partner-task-kit/server/store/migrations';
import { openStore } from '@partner-task-kit/server/store/store';
import { createPostgresDatabase, queryPostgres } from '../helpers/test-databases';
import { launchServer, platformEnv, type LaunchedServer } from '../helpers/server-process';

const INSTANCES = 10;
/** What a future version would have added: a name this code does not know. */
const FUTURE_MIGRATION = '9999_from_a_newer_version';

describe('ten stores opened at once in one process on one empty Postgres database', () => {
  it('all open, and each migration is applied and recorded once', async () => {
    // Unlike processes, which start at their own pace, these reach the migrations within one turn of the event loop.
    const fresh = await createPostgresDatabase('ptk_race');
    try {
      const opened = await Promise.allSettled(Array.from({ length: INSTANCES }, () => openStore({ kind: 'postgres', url: fresh.url })));
      await Promise.all(opened.map((result) => (result.status === 'fulfilled' ? result.value.close() : undefined)));
      expect(opened.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))).toEqual([]);
      const recorded = await queryPostgres<{ name: string; times: number }>(
        fresh.url,
        'select name, count(*)::int as times from kysely_migration group by name order by name',
      );
      const known = Object.keys(await storeMigrations('postgres').getMigrations()).sort();
      expect(recorded).toEqual(known.map((name) => ({ name, times: 1 })));
    } finally {
      await fresh.cleanup();
    }
  }, 60_000);
});

describe('ten servers started at once on one empty Postgres database', () => {
  let emulator: RunningEmulator | undefined;
  // A database of its own: Kysely's migration lock is per database, so no other test's migrations queue with these.
  let fresh: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
  let databaseUrl = '';
  const servers: LaunchedServer[] = [];

  beforeAll(async () => {
    fresh = await createPostgresDatabase('ptk_migrate');
    databaseUrl = fresh.url;
    emulator = await startEmulator();
  });

  afterAll(async () => {
    await Promise.allSettled(servers.splice(0).map((server) => server.kill('SIGKILL')));
    await emulator?.close().catch(() => {});
    await fresh?.cleanup();
  }, 60_000);

  it('all become ready, with one set of tables and each migration recorded once', async ({ onTestFailed }) => {
    const env = platformEnv(emulator!.url, { DATABASE_URL: databaseUrl });
    servers.push(...(await Promise.all(Array.from({ length: INSTANCES }, () => launchServer(env)))));
    onTestFailed(() => console.info(servers.map((server, index) => `--- server ${index} ---\n${server.output()}`).join('\n')));
    // Ten processes on a small machine start slowly; the bound only ends a start that never comes.
    await Promise.all(servers.map((server) => server.healthy(120_000)));
    const readiness = await Promise.all(servers.map(async (server) => (await fetch(`${server.url}/readyz`)).status));
    expect(readiness).toEqual(Array.from({ length: INSTANCES }, () => 200));
    expect(servers.map((server) => server.child.exitCode)).toEqual(Array.from({ length: INSTANCES }, () => null));
    for (const server of servers) expect(server.output()).not.toMatch(/could not start|migration .* failed|"level":50/);

    const known = Object.keys(await storeMigrations('postgres').getMigrations()).sort();
    const recorded = await queryPostgres<{ name: string; times: number }>(
      databaseUrl,
      'select name, count(*)::int as times from kysely_migration group by name order by name',
    );
    expect(recorded).toEqual(known.map((name) => ({ name, times: 1 })));
    // One set of tables: each of ours once, in the one schema, none left half-made elsewhere.
    const tables = await queryPostgres<{ schema: string; name: string }>(
      databaseUrl,
      `select table_schema as schema, table_name as name from information_schema.tables
       where table_schema not in ('pg_catalog', 'information_schema') order by table_name`,
    );
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set(['public']));
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['tasks', 'task_history', 'outbox', 'kysely_migration']));
    expect(new Set(tables.map((table) => table.name)).size).toBe(tables.length);

    await Promise.all(servers.splice(0).map((server) => server.kill('SIGTERM').then(() => expect(server.child.exitCode).toBe(0))));
  }, 240_000);

  it('refuses to start once a newer version migrated the database, naming the migration, without waiting', async () => {
    await queryPostgres(
      databaseUrl,
      `insert into kysely_migration (name, timestamp) values ('${FUTURE_MIGRATION}', '${new Date().toISOString()}')`,
    );
    const server = await launchServer(platformEnv(emulator!.url, { DATABASE_URL: databaseUrl }));
    servers.push(server);
    // Exits by itself: a schema newer than the code does not heal by waiting for DATABASE_STARTUP_TIMEOUT_MS.
    const code = await new Promise<number | null>((resolve) => {
      if (server.child.exitCode !== null) resolve(server.child.exitCode);
      else server.child.once('exit', (exitCode) => resolve(exitCode));
    });
    expect(code).toBe(1);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('could not start'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(FUTURE_MIGRATION);
    expect(lines[0]).toContain('upgrade the code');
    expect(server.output()).not.toContain('waiting for the database');
  }, 60_000);
});
