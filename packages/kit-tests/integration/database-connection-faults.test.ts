import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, connect, type Server } from 'node:net';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort, launchServer, spawnServer, type ServerProcess } from '../helpers/server-process';
import { postgresSchemaUrl, testDatabase, testPostgresUrl, type BlankTestDatabase } from '../helpers/test-databases';

let admin: pg.Client;
let database: BlankTestDatabase;
let schema: string;
let directory: string;
let server: ServerProcess | undefined;

beforeEach(async () => {
  admin = new pg.Client({ connectionString: testPostgresUrl });
  await admin.connect();
  database = await testDatabase('postgres').create();
  schema = database.location;
  directory = mkdtempSync(join(tmpdir(), 'ptk-db-faults-'));
});

afterEach(async () => {
  await server?.kill('SIGTERM');
  server = undefined;
  await database.cleanup();
  await admin.end();
  rmSync(directory, { recursive: true, force: true });
});

/** Ends every backend connection the server holds to its schema, as a Postgres restart or a DBA would. */
async function terminateServerConnections(): Promise<number> {
  const { rows } = await admin.query<{ terminated: boolean }>(
    `select pg_terminate_backend(pid) as terminated from pg_stat_activity
     where pid <> pg_backend_pid() and datname = current_database() and query not ilike '%pg_stat_activity%'
       and application_name = $1`,
    [schema],
  );
  return rows.filter((row) => row.terminated).length;
}

describe('Postgres connections dropped under a running server', () => {
  it('keeps the process up and serving once its connections are terminated', async () => {
    server = await spawnServer({ DATABASE_URL: postgresSchemaUrl(schema, { application_name: schema }) });
    // The relay's idle connections and a request's connection are all in the pool.
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    for (let round = 0; round < 3; round += 1) {
      await expect.poll(terminateServerConnections, { timeout: 5_000 }).toBeGreaterThan(0);
      await expect.poll(async () => (await fetch(`${server!.url}/readyz`)).status, { timeout: 10_000 }).toBe(200);
    }
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/Unhandled 'error' event|terminating connection due to administrator command\n\s+at/);
  }, 60_000);
});

describe('readiness probes a real write', () => {
  it('is 503 with the reason while the database answers reads but refuses writes', async () => {
    // A role of its own: making its sessions read-only touches no other test on the shared database.
    const role = `${schema}_user`;
    await admin.query(`create role "${role}" login`);
    await admin.query(`grant all on schema "${schema}" to "${role}"`);
    try {
      const url = new URL(postgresSchemaUrl(schema, { application_name: schema }));
      url.username = role;
      server = await spawnServer({ DATABASE_URL: url.toString() });
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      // From now on its new sessions refuse writes while reads still work, as a read-only replica or volume would.
      await admin.query(`alter role "${role}" set default_transaction_read_only = on`);
      await terminateAllButAdmin();
      await expect.poll(async () => (await fetch(`${server!.url}/readyz`)).status, { timeout: 10_000 }).toBe(503);
      const refused = await fetch(`${server.url}/readyz`);
      expect(await refused.json()).toMatchObject({ error: { code: 'database_unreachable', message: expect.stringMatching(/read-only/) } });

      await admin.query(`alter role "${role}" reset default_transaction_read_only`);
      await terminateAllButAdmin();
      await expect.poll(async () => (await fetch(`${server!.url}/readyz`)).status, { timeout: 10_000 }).toBe(200);
    } finally {
      await server?.kill('SIGTERM');
      server = undefined;
      await database.cleanup();
      await admin.query(`drop role if exists "${role}"`);
    }
  }, 60_000);
});

/** Ends the server's sessions, so its pool opens new ones with the database's current settings. */
async function terminateAllButAdmin(): Promise<void> {
  await admin.query(
    `select pg_terminate_backend(pid) from pg_stat_activity
     where pid <> pg_backend_pid() and datname = current_database() and query not ilike '%pg_stat_activity%'
       and application_name = $1`,
    [schema],
  );
}

describe('starting while Postgres is not up yet', () => {
  it('waits with backoff, logging each try, and becomes ready once the database answers', async () => {
    // The database is reached through a port that nothing answers on until the test opens it.
    const port = await freePort();
    const target = new URL(testPostgresUrl);
    const url = new URL(database.url);
    url.port = String(port);
    const launched = await launchServer({ DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' });
    server = launched;
    let proxy: Server | undefined;
    try {
      // It must fail at least twice and still be there, saying what it waits for, before the database appears.
      await expect
        .poll(() => launched.output().match(/waiting for the database/g)?.length ?? 0, { timeout: 20_000 })
        .toBeGreaterThanOrEqual(2);
      expect(launched.child.exitCode).toBeNull();
      proxy = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      await new Promise<void>((resolve) => proxy!.listen(port, '127.0.0.1', resolve));
      await launched.healthy(30_000);
      expect((await fetch(`${launched.url}/readyz`)).status).toBe(200);
    } finally {
      await server?.kill('SIGTERM');
      server = undefined;
      await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
    }
  }, 60_000);
});
