import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNodeScript } from '../helpers/run-command';
import { freePort } from '../helpers/server-process';

const directory = mkdtempSync(join(tmpdir(), 'ptk-start-failure-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The JSON lines a failed start wrote, parsed: one fatal line with what to do, and no stack trace anywhere. */
function logLines(output: string): Array<{ level: number; msg: string }> {
  return output
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

describe('a server that cannot start says why in one plain line', () => {
  it('names the PORT in use and what to do, without a stack trace', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const result = await runNodeScript('packages/kit-tests/fixtures/kit-main.ts', {
        PORT: String(port),
        DATABASE_URL: join(directory, 'in-use.db'),
      });
      expect(result.code).toBe(1);
      const fatal = logLines(result.stdout).filter((line) => line.level === 60);
      expect(fatal.map((line) => line.msg)).toEqual([
        `could not start: PORT ${port} is already in use on 127.0.0.1: stop the program that holds it (another server or \`npm run dev\`?) or set PORT to a free port, e.g. PORT=${port + 10}`,
      ]);
      expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('names a Postgres that refuses the connection, without its password or a stack trace', async () => {
    const closedPort = await freePort();
    const result = await runNodeScript('packages/kit-tests/fixtures/kit-main.ts', {
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://partner:pa55word-not-shown@127.0.0.1:${closedPort}/tasks`,
      DATABASE_STARTUP_TIMEOUT_MS: '0',
    });
    expect(result.code).toBe(1);
    const fatal = logLines(result.stdout).filter((line) => line.level === 60);
    expect(fatal.map((line) => line.msg)).toEqual([
      `could not start: the Postgres database at 127.0.0.1:${closedPort}/tasks refused the connection: nothing listens there; start Postgres or correct the host and port in DATABASE_URL`,
    ]);
    expect(result.stdout + result.stderr).not.toContain('pa55word-not-shown');
    expect(result.stdout + result.stderr).not.toMatch(/"stack"|\n\s+at /);
  });

  it('refuses a DATABASE_URL of an unsupported engine before creating anything', async () => {
    const result = await runNodeScript('packages/kit-tests/fixtures/kit-main.ts', {
      DATABASE_URL: 'mysql://root:pa55word-not-shown@localhost/tasks',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Configuration is invalid:\n  DATABASE_URL: expected a SQLite file path (e.g. ./data/partner-task.db) or a postgres:// URL, got a mysql:// URL, which is not supported\n',
    );
  });
});
