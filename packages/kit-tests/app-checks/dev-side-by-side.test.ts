import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDev, stopGroup } from '../helpers/dev-process';

const directory = mkdtempSync(join(tmpdir(), 'ptk-dev-'));
const children: ChildProcess[] = [];

afterAll(async () => {
  // The dev script and everything it started (tsx watch, the server) form one process group.
  await Promise.all(children.map(stopGroup));
  rmSync(directory, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('runs twice side by side with different PORTs, each page with its own server and emulator, which --reset-emulator empties', async () => {
    const [a, b] = await Promise.all([startDev(directory, 'a', children), startDev(directory, 'b', children)]);

    for (const dev of [a, b]) {
      const page = await fetch(`http://127.0.0.1:${dev.port}/preview`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    }

    // A task assigned through one page's emulator is unknown to the other's: each Vite forwards to its own server.
    const uuid = randomUUID();
    const assigned = await fetch(`http://127.0.0.1:${a.port}/emulator/control/assignments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Side by side', iframeUrl: `http://127.0.0.1:${a.port}/`, assignedTaskUuid: uuid }),
    });
    expect(assigned.status).toBe(201);
    expect((await fetch(`http://127.0.0.1:${a.port}/emulator/control/assignments/${uuid}`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${b.port}/emulator/control/assignments/${uuid}`)).status).toBe(404);
    expect(existsSync(join(directory, 'a-emulator.db'))).toBe(true);

    // Started again, the emulator still knows the task; started with --reset-emulator, it has forgotten it.
    await a.stop();
    const again = await startDev(directory, 'a', children, { port: a.port });
    expect((await fetch(`http://127.0.0.1:${again.port}/emulator/control/assignments/${uuid}`)).status).toBe(200);
    await again.stop();
    const reset = await startDev(directory, 'a', children, { port: a.port, args: ['--reset-emulator'] });
    expect(reset.output()).toContain('emulator state reset');
    expect((await fetch(`http://127.0.0.1:${reset.port}/emulator/control/assignments/${uuid}`)).status).toBe(404);
  }, 180_000);
});
