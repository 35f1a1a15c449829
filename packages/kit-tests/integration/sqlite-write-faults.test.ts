import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnServer } from '../helpers/server-process';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { requestSession, type SessionAnswer } from '../helpers/task-app';

/*
 * Real faults on real files, as root (tests and CI run as root, which ignores permission bits, so chmod proves
 * nothing). Read-only: a read-only bind mount. It cannot be applied under a running server (the kernel refuses to
 * remount while SQLite holds its files open for writing: EBUSY), and a file that turns unwritable under an open
 * connection fails as SQLITE_IOERR_WRITE ("disk I/O error", an ext4 volume remounted read-only after an error) or, with
 * `chattr +i` on its files, kills the process with SIGBUS (the -shm is memory-mapped). SQLITE_READONLY is what a connection opened on an unwritable
 * file gets, which is the production case: the server crashed and its restart finds the volume read-only. So the test
 * crashes a server (kill -9, leaving the -wal and -shm), mounts its directory read-only and starts it there. Full disk:
 * a 2 MB tmpfs filled with a junk file, so SQLite's own writes meet ENOSPC (SQLITE_FULL).
 */

let directory: string;
let mountPoint: string;
let server: TestServer | undefined;
/** The server's log, for a failure's message and for what it says of the file. */
const serverLog = () => server?.logLines ?? [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-sqlite-faults-'));
  mountPoint = join(directory, 'mounted');
  mkdirSync(mountPoint);
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  if (isMounted(mountPoint)) sh('umount', mountPoint);
  rmSync(directory, { recursive: true, force: true });
});

function sh(...command: [string, ...string[]]): void {
  execFileSync(command[0], command.slice(1), { stdio: 'pipe' });
}

function isMounted(path: string): boolean {
  try {
    sh('mountpoint', '-q', path);
    return true;
  } catch {
    return false;
  }
}

/** Loops of requests from one address: rate limits off. */
const NO_RATE_LIMITS = { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_TASK: '0' };

const readyStatus = async (url: string) => (await fetch(`${url}/readyz`)).status;

/** The contract's error body, and nothing of the driver's (no stack, no SQLite wording). */
function expectContractError(answer: SessionAnswer): void {
  // 503, not 500: the database, not the server's code, is at fault, and it heals by itself.
  expect(answer.status).toBe(503);
  expect(answer.headers['retry-after']).toBe('2');
  expect(answer.body).toEqual({ error: { code: 'database_unreachable', message: expect.any(String) } });
  expect(JSON.stringify(answer.body)).not.toMatch(/SQLITE|\bat .+:\d+/);
}

/** Asks /readyz for longer than its 1 s probe cache, so several real probes fail (or succeed) in a row. */
async function readinessDuring(url: string, ms: number): Promise<number[]> {
  const statuses: number[] = [];
  for (const until = Date.now() + ms; Date.now() < until;) {
    statuses.push(await readyStatus(url));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return statuses;
}

/** Readiness probes the database at most once a second (packages/server/src/http/operations-routes.ts), with a margin. */
const PROBE_INTERVAL_MS = 1_100;

/**
 * /readyz asked once a probe interval has passed since the database was fixed: no earlier probe's answer may be
 * served any longer, so this one reflects the fix. Asked at that moment rather than timed by a stopwatch, which a busy
 * machine stretches whatever the server does.
 */
async function readinessAfterProbeInterval(url: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  return readyStatus(url);
}

describe('SQLite that cannot take a write', () => {
  it('opened read-only after a crash: 503 naming read-only, one log line naming the file, 200 again once writable', async () => {
    const data = join(directory, 'data');
    const crashed = await spawnServer({ DATABASE_URL: join(data, 'store.db') });
    expect((await requestSession(crashed.url)).status).toBe(200);
    await crashed.kill('SIGKILL');
    expect(existsSync(join(data, 'store.db-wal'))).toBe(true);

    sh('mount', '--bind', data, mountPoint);
    sh('mount', '-o', 'remount,ro,bind', mountPoint);
    const filename = join(mountPoint, 'store.db');
    server = await startTestServer({ DATABASE_URL: filename, LOG_LEVEL: 'info', ...NO_RATE_LIMITS });
    const { url } = server;

    const refused = await fetch(`${url}/readyz`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ error: { code: 'database_unreachable', message: expect.stringMatching(/read-only/) } });
    expectContractError(await requestSession(url));
    expect(await readinessDuring(url, 2_500)).not.toContain(200);

    const naming = serverLog().filter((line) => line.includes(filename));
    expect(naming, serverLog().join('\n')).toHaveLength(1);
    expect(JSON.parse(naming[0]!)).toMatchObject({
      level: 50,
      location: filename,
      reason: 'read-only',
      msg: expect.stringMatching(/read-only/),
    });

    sh('mount', '-o', 'remount,rw,bind', mountPoint);
    expect(await readinessAfterProbeInterval(url), serverLog().join('\n')).toBe(200);
    expect((await requestSession(url)).status).toBe(200);
    expect(serverLog().filter((line) => line.includes('takes writes again'))).toHaveLength(1);
  }, 60_000);

  it('on a full disk: 503 naming disk full, not "cannot rollback", 200 again once space is freed', async () => {
    sh('mount', '-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint);
    const filename = join(mountPoint, 'store.db');
    server = await startTestServer({ DATABASE_URL: filename, LOG_LEVEL: 'info', ...NO_RATE_LIMITS });
    const { url } = server;
    expect(await readyStatus(url)).toBe(200);

    // Every free byte goes to a junk file (short writes fill the last page), as a runaway log would take them.
    const junk = join(mountPoint, 'junk');
    const fd = openSync(junk, 'w');
    try {
      const block = Buffer.alloc(64 * 1024, 1);
      for (;;) writeSync(fd, block);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      closeSync(fd);
    }

    // The WAL reuses the space it already has, so writes keep succeeding until the database must grow: write until
    // one fails, as partners opening tasks on a full disk would.
    let failed: SessionAnswer | undefined;
    for (let index = 0; index < 2_000 && !failed; index += 1) {
      const response = await requestSession(url);
      if (response.status !== 200) failed = response;
    }
    expect(failed, 'no write failed on the full disk').toBeDefined();
    expectContractError(failed!);

    const statuses = await readinessDuring(url, 2_500);
    expect(statuses.at(-1)).toBe(503);
    const refused = await fetch(`${url}/readyz`);
    expect(await refused.json()).toEqual({ error: { code: 'database_unreachable', message: expect.stringMatching(/disk full/) } });
    const naming = serverLog().filter((line) => line.includes(filename));
    expect(naming, serverLog().join('\n')).toHaveLength(1);
    expect(JSON.parse(naming[0]!)).toMatchObject({
      level: 50,
      location: filename,
      reason: 'disk full',
      msg: expect.stringMatching(/disk full/),
    });
    expect(serverLog().join('\n')).not.toMatch(/cannot rollback/);

    unlinkSync(junk);
    expect(await readinessAfterProbeInterval(url), serverLog().join('\n')).toBe(200);
    expect((await requestSession(url)).status).toBe(200);
  }, 60_000);
});
