import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const projectRoot = join(import.meta.dirname, '../../..');
/** The npm scope of the workspace's packages (packages/*). */
const WORKSPACE_SCOPE = '@partner-task-kit';

export interface Outcome {
  code: number | null;
  /** Standard output and error, interleaved as they came. */
  output: string;
}

/**
 * Runs `command` in `cwd` with this user's PATH and HOME (npm reads its settings there), and `env` when given, and
 * collects its output.
 */
export function runIn(
  cwd: string,
  command: string,
  args: readonly string[],
  timeoutMs = 120_000,
  extraEnv: Record<string, string> = {},
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    // Nothing of the test runner's environment (VITEST_*, NODE_ENV) reaches a vitest or tsc started in the copy, and
    // no colour codes reach the output the test reads.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...extraEnv };
    const child = spawn(command, args, { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * A copy of this project in a new temporary directory, as a partner's checkout would hold it: the files git would
 * commit (uncommitted ones included, ignored ones not) and the installed packages linked rather than copied, which
 * would take minutes. Returns the directory; the caller removes it.
 */
export async function copyProject(): Promise<string> {
  const copy = mkdtempSync(join(tmpdir(), 'ptk-copy-'));
  const listed = await runIn(projectRoot, 'git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], 30_000);
  if (listed.code !== 0) throw new Error(`git ls-files failed: ${listed.output}`);
  // A file deleted in the work tree is still listed by --cached until the deletion is committed; node_modules as a
  // link (a checkout sharing another's packages) is not ignored by `node_modules/`, and is linked anew below.
  const listedFiles = listed.output.split('\0').filter((name) => name !== '' && name !== 'node_modules');
  for (const file of listedFiles.filter((name) => existsSync(join(projectRoot, name)))) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(projectRoot, file), join(copy, file));
  }
  // Each package linked on its own rather than node_modules as a whole, so that the caches tools write in it (tsc's
  // build info in node_modules/.cache, Vite's) are the copy's and never overwrite this checkout's.
  mkdirSync(join(copy, 'node_modules'));
  for (const entry of readdirSync(join(projectRoot, 'node_modules'))) {
    if (entry.startsWith('.') && entry !== '.bin') continue;
    if (entry === WORKSPACE_SCOPE) continue;
    symlinkSync(join(projectRoot, 'node_modules', entry), join(copy, 'node_modules', entry));
  }
  // The workspace's own packages, linked as npm links them (../../packages/<name>): to the copy's, so that a build of
  // the copy runs the copy's engine. Linked to this checkout's, the Vite plugin would prerender with this checkout's
  // page sources, outside the copy's tsconfig.page.json, which tsx then compiles without its JSX setting.
  mkdirSync(join(copy, 'node_modules', WORKSPACE_SCOPE));
  for (const name of readdirSync(join(projectRoot, 'node_modules', WORKSPACE_SCOPE))) {
    const link = join(projectRoot, 'node_modules', WORKSPACE_SCOPE, name);
    symlinkSync(readlinkSync(link), join(copy, 'node_modules', WORKSPACE_SCOPE, name));
    // Their builds, which git ignores: Vite loads the plugin from its dist/, and the plugin the workflow package's.
    const built = join(realpathSync(link), 'dist');
    if (existsSync(built)) cpSync(built, join(copy, relative(projectRoot, realpathSync(link)), 'dist'), { recursive: true });
  }
  return copy;
}
