import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a project script as a user would, with exactly the environment given (plus PATH), and collects its output. */
export function runNodeScript(
  script: string,
  env: Record<string, string>,
  timeoutMs = 20_000,
  args: string[] = [],
  input?: string,
): Promise<CommandResult> {
  return runCommand(process.execPath, ['--import', 'tsx', script, ...args], { PATH: process.env.PATH ?? '', ...env }, timeoutMs, input);
}

/**
 * Node's flags for an app's server entry as its package.json runs it (`npm run migrate`): tsx, and the kit's hooks
 * that give it `virtual:partner-task-kit/workflows` from the folders of the app the entry is in.
 */
export const appServerFlags = ['--import', 'tsx', '--import', join(import.meta.dirname, '../../vite-plugin/src/register.ts')] as const;

/** An app's server entry (its server/main.ts) run with a command, as its package.json scripts run it. */
export function runAppServerEntry(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 20_000,
  args: string[] = [],
): Promise<CommandResult> {
  return runCommand(process.execPath, [...appServerFlags, entry, ...args], { PATH: process.env.PATH ?? '', ...env }, timeoutMs);
}

/** A command of the engine's entry (packages/server/src/run-kit.ts), `tenants` say, run as an app runs it, on the fixture workflows. */
export function runKitCommand(
  command: string,
  env: Record<string, string>,
  timeoutMs = 20_000,
  args: string[] = [],
  input?: string,
): Promise<CommandResult> {
  return runNodeScript('packages/kit-tests/fixtures/kit-main.ts', env, timeoutMs, [command, ...args], input);
}

/** `npm run <command> -- <args>` on the database at `databaseUrl`, in emulator mode unless `env` says otherwise. */
export function kitCommandOn(
  databaseUrl: string,
  command: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<CommandResult> {
  return runKitCommand(command, { ...env, DATABASE_URL: databaseUrl }, 30_000, args);
}

/** Runs any command (npm, a node script) with exactly the environment given, and collects its output. */
function runCommand(
  executable: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 20_000,
  /** Written to the command's standard input, which then closes; none: no standard input at all. */
  input?: string,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs an npm script as a developer would, with this user's PATH and HOME (npm reads its settings from HOME). */
export function runNpm(args: string[], timeoutMs = 60_000): Promise<CommandResult> {
  return runCommand('npm', args, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, timeoutMs);
}

/** Runs a system tool (initdb, pg_ctl, chown) with this user's PATH and the C locale, and collects its output. */
export function runTool(executable: string, args: string[], timeoutMs = 30_000): Promise<CommandResult> {
  return runCommand(executable, args, { PATH: process.env.PATH ?? '', LC_ALL: 'C' }, timeoutMs);
}
