import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import { freePort } from './server-process';

interface DevProcess {
  port: number;
  output: () => string;
  /** Stops the dev script and everything it started. */
  stop: () => Promise<void>;
}

/**
 * `npm run dev` as a developer runs it, with PORT and files of its own (in `directory`), until it prints the address to
 * open and its server answers through it. The child is added to `children` at once, so a failed start is still stopped.
 */
export async function startDev(
  directory: string,
  name: string,
  children: ChildProcess[],
  options: { port?: number; args?: string[] } = {},
): Promise<DevProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts', ...(options.args ?? [])], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      DATABASE_URL: join(directory, `${name}.db`),
      EMULATOR_STATE_FILE: join(directory, `${name}-emulator.db`),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect
    .poll(() => (child.exitCode === null ? output : `exited with ${child.exitCode}: ${output}`), { timeout: 45_000, interval: 200 })
    .toContain(`open http://localhost:${port}/preview`);
  // The server behind Vite answers once tsx has compiled and started it.
  await expect
    .poll(
      () =>
        fetch(`http://127.0.0.1:${port}/healthz`).then(
          (response) => response.status,
          () => 0,
        ),
      { timeout: 45_000, interval: 200 },
    )
    .toBe(200);
  return { port, output: () => output, stop: () => stopGroup(child) };
}

export function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}
