import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNpm } from '../helpers/run-command';
import { spawnServer } from '../helpers/server-process';

let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-signals-'));
  // `npm run serve` runs the bundle; build it as `npm run build` would (the page is not needed here).
  const built = await runNpm(['run', '-s', 'build:server']);
  expect(built.code, built.stderr).toBe(0);
}, 90_000);

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('the documented production command', () => {
  it('passes SIGTERM from npm to the server, which drains and exits cleanly', async () => {
    const server = await spawnServer({ DATABASE_URL: join(directory, 'signals.db'), LOG_LEVEL: 'info' }, 30_000, [
      'npm',
      'run',
      '-s',
      'serve',
    ]);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(server.output()).toContain('"signal":"SIGTERM"');
    expect(server.output()).toContain('shutting down');
    // The listener is gone with the process: nothing answers on its port any more.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  }, 60_000);
});
