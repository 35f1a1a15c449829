import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandOf, descendantsOf, isRunning, portAnswers, startDev, stopGroup } from '../helpers/dev-process';

const directory = mkdtempSync(join(tmpdir(), 'ptk-dev-stop-'));
const children: ChildProcess[] = [];

afterAll(async () => {
  await Promise.all(children.map(stopGroup));
  rmSync(directory, { recursive: true, force: true });
});

/** The loopback port of the server behind Vite, as the banner names it. */
function serverPort(output: string): number {
  const port = /the server behind it: http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
  expect(port, output).toBeDefined();
  return Number(port);
}

/** Waits until none of `processes` runs and neither port answers. */
async function expectAllGone(processes: number[], ports: number[], output: () => string): Promise<void> {
  await expect
    .poll(() => processes.filter(isRunning).map((pid) => `${pid} ${commandOf(pid)}`), { timeout: 30_000, interval: 200 })
    .toEqual([]);
  await expect.poll(async () => (await Promise.all(ports.map(portAnswers))).some(Boolean), { timeout: 10_000, interval: 200 }).toBe(false);
  expect(output()).not.toMatch(/could not start/);
}

describe('npm run dev', () => {
  it('prints one address for the preview, the page on PORT, and stops everything when npm is sent SIGTERM', async () => {
    // At info, the server prints its start lines, which name its own preview address.
    const dev = await startDev(directory, 'sigterm', children, { env: { LOG_LEVEL: 'info' } });
    expect(dev.output()).toMatch(/task page: http:\/\/127\.0\.0\.1:\d+\//);
    // Every preview address printed, the server's start lines included: only Vite's, where the page has hot reload.
    const previewAddresses = new Set(dev.output().match(/https?:\/\/[^\s"'()]+\/preview\b/g));
    expect([...previewAddresses], dev.output()).toEqual([`http://localhost:${dev.port}/preview`]);

    const ports = [dev.port, serverPort(dev.output())];
    const processes = [dev.child.pid!, ...descendantsOf(dev.child.pid!)];
    // npm, its shell, the kit's bin (partner-task-kit dev), tsx watch and the server: all of them are to go.
    expect(processes.map(commandOf).join('\n')).toMatch(/server\/main\.ts/);

    // What an IDE's stop button does: SIGTERM to the npm process alone, not to its process group.
    process.kill(dev.child.pid!, 'SIGTERM');
    await expectAllGone(processes, ports, dev.output);
  }, 150_000);

  it('stops the server when the dev script itself dies without a chance to stop it (SIGKILL)', async () => {
    const dev = await startDev(directory, 'sigkill', children);
    const ports = [dev.port, serverPort(dev.output())];
    const processes = [dev.child.pid!, ...descendantsOf(dev.child.pid!)];
    // The kit's bin, `partner-task-kit dev` (packages/vite-plugin/dist/bin.js), not the shell npm runs it with.
    const devScript = processes.find((pid) => /dist\/bin\.js dev\b/.test(commandOf(pid)) && !commandOf(pid).startsWith('sh '));
    expect(devScript, processes.map(commandOf).join('\n')).toBeDefined();

    process.kill(devScript!, 'SIGKILL');
    await expectAllGone(processes, ports, dev.output);
  }, 150_000);
});
