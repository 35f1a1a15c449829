import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { expect } from 'vitest';
import { onKitVersion, tarballSource, type AppManifest } from '@partner-task-kit/vite-plugin/cli/upgrade-plan';
import type { Tarballs } from '../../create-partner-task-kit/scripts/pack-kit';
import { runIn, type Outcome } from '../helpers/project-copy';

export { kitVersion, packKit, type Tarballs } from '../../create-partner-task-kit/scripts/pack-kit';

/**
 * The kit as a partner gets it, for the tests of this folder: every published package packed with `npm pack` from a
 * checkout of the kit, as `npm run create-app` packs it (packages/create-partner-task-kit/scripts/pack-kit.ts), an app
 * made by the packed scaffolder outside that checkout and installed from the tarballs alone, and the browser specs that
 * complete a task against the app's `npm start`.
 */
export const repoRoot = join(import.meta.dirname, '../../..');
export const minutes = (count: number) => count * 60_000;

/** The browser test, by file and title, that completes a task of each example. */
const completions: Record<string, { spec: string; title: string }> = {
  'safety-training': { spec: 'engine/task-completion.spec.ts', title: 'a worker completes the training inside the portal iframe' },
  availability: { spec: 'app/preview-availability.spec.ts', title: 'a developer launches the availability workflow' },
  'background-check': { spec: 'app/preview-partner-backend.spec.ts', title: 'the backend reports passed' },
  'work-authorization': { spec: 'app/preview-work-authorization.spec.ts', title: 'a worker who is not a citizen gives a document' },
};
export const exampleIds = Object.keys(completions);

export function expectSuccess(outcome: Outcome, what: string): void {
  // The output in the failure message: a failing `npm test` of the app says why only there.
  expect(outcome.code, `${what} failed:\n${outcome.output.slice(-6_000)}`).toBe(0);
}

/**
 * better-sqlite3's binding, as this repository's `npm ci` compiled it, packed as prebuild-install looks for a local
 * prebuild, in `directory`: without it each install compiles SQLite again, about 4 minutes on 2 CPUs where no prebuilt
 * binary can be downloaded (docs/development.md#requirements). An install that resolves another version of
 * better-sqlite3 finds no file of its name here and compiles, as a partner's would. Returns the environment that
 * points npm at it.
 */
export async function nativeSqlite(directory: string): Promise<Record<string, string>> {
  mkdirSync(directory, { recursive: true });
  const sqlite = join(repoRoot, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string };
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  expectSuccess(await runIn(sqlite, 'tar', ['-czf', join(directory, file), 'build/Release/better_sqlite3.node'], minutes(1)), 'tar');
  return { npm_config_better_sqlite3_local_prebuilds: directory };
}

interface ScaffoldedManifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  partnerTaskKit: { version: string };
}

function readManifest(appDir: string): ScaffoldedManifest {
  return JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as ScaffoldedManifest;
}

/**
 * An app made by the packed scaffolder of `tarballs` in `appDir` (not installed yet); its manifest says `version`, and
 * names each kit package by `spec`: the exact version, as from the release that pinned the packages to each other
 * (releases before it wrote a caret range).
 */
export async function scaffoldApp(
  appDir: string,
  tarballs: Tarballs,
  version: string,
  options: string[],
  spec: string = version,
): Promise<void> {
  const made = await runIn(
    join(appDir, '..'),
    'npm',
    ['exec', '--yes', '--package', tarballs.get('create-partner-task-kit')!, '--', 'create-partner-task-kit', appDir, ...options],
    minutes(2),
  );
  expectSuccess(made, 'the scaffolder');
  const manifest = readManifest(appDir);
  expect(manifest.partnerTaskKit).toEqual({ version });
  // Each kit package at exactly the kit's version, as their peerDependencies name each other (docs/upgrading.md#one-version-of-the-kit).
  for (const name of ['workflow', 'page', 'server', 'vite-plugin']) expect(manifest.dependencies[`@partner-task-kit/${name}`]).toBe(spec);
  expect(manifest.devDependencies['@partner-task-kit/testing']).toBe(spec);
  // The emulator and the preview its `npm start` runs in emulator mode, a dev dependency a production install leaves out
  // (from the release that made them a package of their own).
  if (tarballs.has('@partner-task-kit/dev')) expect(manifest.devDependencies['@partner-task-kit/dev']).toBe(spec);
}

/**
 * The app's kit packages taken from `tarballs`, installed: what `npm install @partner-task-kit/…@<version>` does once
 * they are on the registry. The packages are checked to be real folders from the tarballs, not links into a checkout.
 */
export async function installKit(appDir: string, tarballs: Tarballs, environment: Record<string, string>): Promise<void> {
  // Each kit package, and the kit packages they depend on, from its tarball: what `npm run create-app` writes.
  const files = [...tarballs.values()];
  const source = tarballSource(
    files.map((file) => basename(file)),
    `${dirname(files[0]!)}/`,
  );
  const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as AppManifest;
  writeFileSync(join(appDir, 'package.json'), `${JSON.stringify(onKitVersion(manifest, source).manifest, null, 2)}\n`);
  const install = await runIn(appDir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], minutes(6), environment);
  expectSuccess(install, 'npm install');
  expectKitFromTarballs(appDir);
}

/** The app's kit packages are real folders, unpacked from tarballs: no link into a checkout of the kit. */
export function expectKitFromTarballs(appDir: string): void {
  for (const entry of readdirSync(join(appDir, 'node_modules/@partner-task-kit'))) {
    const installed = join(appDir, 'node_modules/@partner-task-kit', entry);
    expect(lstatSync(installed).isSymbolicLink(), `${installed} is a link`).toBe(false);
    expect(realpathSync(installed).startsWith(repoRoot)).toBe(false);
  }
}

/** The version of a kit package installed in the app. */
export function installedVersion(appDir: string, packageName: string): string {
  return (JSON.parse(readFileSync(join(appDir, 'node_modules', packageName, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The browser specs that complete a task of each of `workflows` against the app's `npm start`, on a fresh port, with
 * the SQLite file `database`; their results in `outputDir`.
 */
function completeTasks(
  appDir: string,
  workflows: readonly string[],
  database: string,
  outputDir: string,
  environment: Record<string, string> = {},
): Promise<Outcome> {
  const chosen = workflows.map((id) => completions[id]!);
  const grep = chosen.map(({ title }) => title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return runIn(
    repoRoot,
    'node',
    [
      'node_modules/.bin/playwright',
      'test',
      '--config',
      'packages/kit-tests/packed/playwright.packed.config.ts',
      '--grep',
      grep,
      ...chosen.map(({ spec }) => spec),
    ],
    minutes(6),
    { ...environment, PACKED_APP_DIR: appDir, PACKED_OUTPUT_DIR: outputDir, E2E_DATABASE: database },
  );
}

/**
 * completeTasks with the results beside the app, and its database too unless `database` names one; `environment` for
 * the specs (PACKED_WORKFLOW_ID: the id of a copy of the availability example that its spec launches instead).
 */
export function completeTasksBeside(
  appDir: string,
  workflows: readonly string[],
  database = join(appDir, '..', `${basename(appDir)}.db`),
  environment: Record<string, string> = {},
): Promise<Outcome> {
  return completeTasks(appDir, workflows, database, join(appDir, '..', `${basename(appDir)}-results`), environment);
}
