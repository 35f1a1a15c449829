import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { freePort } from './server-process';

interface DevProcess {
  port: number;
  /** The npm process: what a terminal or an IDE signals to stop `npm run dev`. */
  child: ChildProcess;
  output: () => string;
  /** Stops the dev script and everything it started. */
  stop: () => Promise<void>;
}

/** What npm needs of the environment to run (and not one variable more, so the tests' own settings stay out). */
export function npmEnvironment(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
}

/**
 * `npm run dev` as a developer runs it, with PORT and files of its own (in `directory`), until it prints the address to
 * open and its server answers through it. In this repository as in an app made by create-partner-task-kit, the script
 * runs the kit's bin, `partner-task-kit dev` (compiled, packages/vite-plugin/dist/bin.js), in the app's folder: here
 * the repository's root, whose app it starts (or `cwd`, a copy of it). The child is added to `children` at once, so a failed start is still stopped.
 */
export async function startDev(
  directory: string,
  name: string,
  children: ChildProcess[],
  options: { port?: number; args?: string[]; env?: Record<string, string>; cwd?: string } = {},
): Promise<DevProcess> {
  const port = options.port ?? (await freePort());
  const args = options.args === undefined ? [] : ['--', ...options.args];
  const child = spawn('npm', ['run', 'dev', ...args], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: {
      ...npmEnvironment(),
      PORT: String(port),
      DATABASE_URL: join(directory, `${name}.db`),
      EMULATOR_STATE_FILE: join(directory, `${name}-emulator.db`),
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, so a test can stop whatever the dev script left behind (stopGroup).
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect
    .poll(() => (child.exitCode === null ? output : `exited with ${child.exitCode}: ${output}`), { timeout: 60_000, interval: 200 })
    .toContain(`open http://localhost:${port}/preview`);
  // The server behind Vite answers once tsx has compiled and started it, and its app once the database is open.
  await expect
    .poll(
      () =>
        fetch(`http://127.0.0.1:${port}/healthz`).then(
          async (response) => (response.ok ? ((await response.json()) as { status?: unknown }).status : response.status),
          () => 0,
        ),
      { timeout: 60_000, interval: 200 },
    )
    .toBe('ok');
  return { port, child, output: () => output, stop: () => stopGroup(child) };
}

/**
 * Stops `child` and every process under it: SIGTERM to its process group (as a terminal's Ctrl-C reaches every process
 * of the foreground group), then waits until each process that was under it has exited, whichever group it was in.
 * Whatever is still running after 15 s is killed.
 */
export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  const processes = [child.pid, ...descendantsOf(child.pid)];
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // The group is gone; its processes may not be (they may have moved to groups of their own).
  }
  const deadline = Date.now() + 15_000;
  while (processes.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const pid of processes.filter(isRunning)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Exited in between.
    }
  }
}

/** Every process under `pid`, however deep, from /proc: children's children included, whatever their group. */
export function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat !== undefined) parentOf.set(Number(entry), stat.ppid);
  }
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    frontier = [...parentOf].filter(([, parent]) => frontier.includes(parent)).map(([child]) => child);
    found.push(...frontier);
  }
  return found;
}

/** The command line of a process, or '' when it is gone. */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Whether the process runs: an exited one waiting to be reaped (a zombie) counts as gone. */
export function isRunning(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

function statOf(pid: number): { state: string; ppid: number } | undefined {
  try {
    // "pid (command) state ppid ...": the command may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** Whether anything accepts connections on `port` at either loopback address (Vite listens on `localhost`). */
export async function portAnswers(port: number): Promise<boolean> {
  const answers = (host: string) =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  return (await Promise.all(['127.0.0.1', '::1'].map(answers))).some(Boolean);
}
