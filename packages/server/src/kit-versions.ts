import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

/**
 * The kit's packages are released together and run together at one version only, one copy each
 * (docs/upgrading.md#one-version-of-the-kit): a second copy of `workflow` holds its own schemas and checks, a `server`
 * one patch ahead of `page` speaks a contract no release was tested with. This finds every copy the app's tree holds
 * and refuses a mix, for the server's start (run-kit.ts), `doctor`, and the page's build (the vite-plugin).
 */
const kitPackageNames = [
  '@partner-task-kit/workflow',
  '@partner-task-kit/page',
  '@partner-task-kit/server',
  '@partner-task-kit/testing',
  '@partner-task-kit/vite-plugin',
  '@partner-task-kit/dev',
] as const;

/** The variable that lets a mixed tree run, for tests and emergencies (docs/configuration.md#kit-versions). */
export const KIT_VERSION_CHECK = 'KIT_VERSION_CHECK';

export interface KitCopy {
  name: string;
  version: string;
  /** The package's folder, its real path. */
  folder: string;
  /** Who finds this copy when it imports the package: `the app`, or the kit packages that do. */
  foundBy: string[];
}

/** @internal */
export type KitVersionCheck =
  | { kind: 'one-version'; copies: KitCopy[] }
  | { kind: 'refused'; copies: KitCopy[]; message: string }
  | { kind: 'bypassed'; copies: KitCopy[]; warning: string };

/**
 * The folder of the package `name` as Node finds it from the folder `from`: the first `node_modules/<name>` up the
 * tree, in the order Node's own resolution walks (require.resolve.paths). Looked up by folder, not by resolving
 * `<name>/package.json`, so a package whose "exports" leave its package.json out is found all the same.
 */
function packageFolder(from: string, name: string): string | undefined {
  for (const modules of createRequire(join(from, 'package.json')).resolve.paths(name) ?? []) {
    const manifest = join(modules, name, 'package.json');
    if (existsSync(manifest)) return realpathSync(dirname(manifest));
  }
  return undefined;
}

/**
 * Every copy of a kit package in the tree of the app at `appRoot`: those the app finds, and those each copy found
 * finds for its siblings (a copy nested in `node_modules/@partner-task-kit/server/node_modules` is found from
 * `server`'s folder only). A package not installed (an app without `testing` in production) is no copy.
 */
export function findKitCopies(appRoot: string): KitCopy[] {
  const copies = new Map<string, KitCopy>();
  const queue: string[] = [];
  const look = (from: string, by: string) => {
    for (const name of kitPackageNames.filter((sibling) => sibling !== by)) {
      const folder = packageFolder(from, name);
      if (folder === undefined) continue;
      const known = copies.get(folder);
      if (known) {
        if (!known.foundBy.includes(by)) known.foundBy.push(by);
        continue;
      }
      const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
      copies.set(folder, { name, version, folder, foundBy: [by] });
      queue.push(folder);
    }
  };
  look(appRoot, 'the app');
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) look(next, copies.get(next)!.name);
  return [...copies.values()].sort((a, b) => a.name.localeCompare(b.name) || a.folder.localeCompare(b.folder));
}

/** Newest first; numeric, so 0.10.0 comes before 0.9.0 (a semver library would be one more dependency of the server for this). */
const byVersionDescending = (a: string, b: string) => b.localeCompare(a, 'en', { numeric: true });

/** What is wrong with `copies` (every copy, its version and its folder) and the fix, or undefined when they are one version, one copy each. */
export function describeMixedKit(copies: readonly KitCopy[], appRoot: string): { problem: string; fix: string } | undefined {
  const versions = [...new Set(copies.map((copy) => copy.version))].sort(byVersionDescending);
  const copiesOf = (name: string) => copies.filter((copy) => copy.name === name).length;
  const twice = [...new Set(copies.map((copy) => copy.name))].filter((name) => copiesOf(name) > 1);
  if (versions.length <= 1 && twice.length === 0) return undefined;
  const width = Math.max(...copies.map((copy) => copy.name.length));
  const lines = copies.map((copy) => {
    const where = relative(appRoot, copy.folder) || '.';
    const notes = [
      ...(twice.includes(copy.name) ? [`one of ${copiesOf(copy.name)} copies`] : []),
      ...(copy.foundBy.includes('the app') ? [] : [`imported by ${copy.foundBy.join(', ')}`]),
    ];
    return `  ${copy.name.padEnd(width)}  ${copy.version.padEnd(8)}  ${where}${notes.length > 0 ? `  (${notes.join(', ')})` : ''}`;
  });
  const what = [
    ...(versions.length > 1 ? [`${versions.length} versions (${versions.join(', ')})`] : []),
    ...(twice.length > 0 ? [`two copies of ${twice.join(', ')}`] : []),
  ].join(' and ');
  return {
    problem: [`The kit's packages are at ${what}; they run together at one version only, one copy each:`, ...lines].join('\n'),
    fix:
      `in the app's folder, put every one at one version in one npm install, \`npx partner-task-kit upgrade ${versions[0]}\`, ` +
      'then run npm test (docs/upgrading.md#one-version-of-the-kit).',
  };
}

/**
 * The check the server's start and the page's build run: a mixed tree is refused, unless KIT_VERSION_CHECK=off lets it
 * run with a warning that says what it runs on.
 *
 * @internal
 */
export function checkKitVersions(appRoot: string, environment: Readonly<Record<string, string | undefined>>): KitVersionCheck {
  const copies = findKitCopies(appRoot);
  const mixed = describeMixedKit(copies, appRoot);
  const problem = mixed && `${mixed.problem}\nFix: ${mixed.fix}`;
  if (environment[KIT_VERSION_CHECK] !== 'off') {
    return problem === undefined ? { kind: 'one-version', copies } : { kind: 'refused', copies, message: problem };
  }
  const warning =
    problem === undefined
      ? `WARNING: ${KIT_VERSION_CHECK}=off is set: the check of the kit's versions is skipped (they are at one version now; unset it).`
      : `WARNING: ${KIT_VERSION_CHECK}=off is set: running on a mix of the kit's packages that no release was tested as, for tests and emergencies only.\n${problem}`;
  return { kind: 'bypassed', copies, warning };
}
