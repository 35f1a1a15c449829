import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The kit's published packages packed with `npm pack` from a checkout of the kit, as the registry would hand them to a
 * partner: for `npm run create-app` (an app from a clone, scripts/create-app.ts) and the tests of the packed packages
 * (packages/kit-tests/packed), which must pack the same way.
 */
const publishedPackages = [
  '@partner-task-kit/workflow',
  '@partner-task-kit/page',
  '@partner-task-kit/server',
  '@partner-task-kit/vite-plugin',
  '@partner-task-kit/testing',
  '@partner-task-kit/dev',
  'create-partner-task-kit',
] as const;

/** Package name -> absolute path of its tarball. */
export type Tarballs = ReadonlyMap<string, string>;

/** A command that failed, with the end of what it printed: the reason is there. */
export class CommandFailed extends Error {}

/** Runs `command` in `cwd` and answers what it printed on its standard output; throws with its output when it fails. */
function run(cwd: string, command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new CommandFailed(`${command} ${args.join(' ')} failed in ${cwd} (exit ${code}):\n${output.slice(-6_000)}`));
    });
  });
}

/** The kit's version in a checkout: every package has the same (.changeset/README.md). */
export function kitVersion(checkout: string): string {
  return (JSON.parse(readFileSync(join(checkout, 'packages/server/package.json'), 'utf8')) as { version: string }).version;
}

/** Builds the packages of `checkout` and packs every published one into `destination`. */
export async function packKit(checkout: string, destination: string): Promise<Tarballs> {
  mkdirSync(destination, { recursive: true });
  await run(checkout, 'npm', ['run', 'build:packages', '--silent']);
  // A checkout of a release before the dev tools were a package (0.3.0) has no packages/dev.
  const published = publishedPackages.filter((name) => existsSync(join(checkout, 'packages', name.replace('@partner-task-kit/', ''))));
  const workspaces = published.flatMap((name) => ['-w', name]);
  // --json: the file each package was packed to. The scaffolder's prepack builds its template from the app.
  const packed = await run(checkout, 'npm', ['pack', '--json', '--pack-destination', destination, ...workspaces]);
  // The JSON follows what the scaffolder's prepack printed.
  const listed = JSON.parse(packed.slice(packed.search(/^\[/m))) as { name: string; filename: string }[];
  const tarballs = new Map(listed.map((entry) => [entry.name, join(destination, entry.filename)] as const));
  const missing = published.filter((name) => !tarballs.has(name));
  if (missing.length > 0) throw new CommandFailed(`npm pack packed no ${missing.join(', ')}`);
  return tarballs;
}
