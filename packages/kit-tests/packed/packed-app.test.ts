import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn, type Outcome } from '../helpers/project-copy';

/**
 * The acceptance test of the packages as a partner gets them: every published package packed with `npm pack`, an app
 * made by the packed scaffolder in a folder outside this repository, installed from those tarballs alone (nothing
 * linked to packages/), then the app's own `npm test` and its `npm start` in emulator mode with one task of each
 * example driven to `completed` by the browser specs that do so here (playwright.packed.config.ts).
 */
const repoRoot = join(import.meta.dirname, '../../..');
const published = [
  '@partner-task-kit/workflow',
  '@partner-task-kit/page',
  '@partner-task-kit/server',
  '@partner-task-kit/vite-plugin',
  '@partner-task-kit/testing',
  'create-partner-task-kit',
];
const minutes = (count: number) => count * 60_000;

/** The browser test, by file and title, that completes a task of each example. */
const completions: Record<string, { spec: string; title: string }> = {
  'safety-training': { spec: 'engine/task-completion.spec.ts', title: 'a worker completes the training inside the portal iframe' },
  availability: { spec: 'app/preview-availability.spec.ts', title: 'a developer launches the availability workflow' },
  'background-check': { spec: 'app/preview-partner-backend.spec.ts', title: 'the backend reports passed' },
  'work-authorization': { spec: 'app/preview-work-authorization.spec.ts', title: 'a worker who is not a citizen gives a document' },
};

let work: string;
/** prebuild-install's local prebuilds (see nativeSqlite), for the apps' installs. */
let prebuilds: string;
/** Package name -> absolute path of its tarball. */
const tarballs = new Map<string, string>();

function expectSuccess(outcome: Outcome, what: string): void {
  // The output in the failure message: a failing `npm test` of the app says why only there.
  expect(outcome.code, `${what} failed:\n${outcome.output.slice(-6_000)}`).toBe(0);
}

beforeAll(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'ptk-packed-')));
  expectSuccess(await runIn(repoRoot, 'npm', ['run', 'build:packages'], minutes(4)), 'npm run build:packages');
  const workspaces = published.flatMap((name) => ['-w', name]);
  // --json: the file each package was packed to. The scaffolder's prepack builds its template from the app.
  const packed = await runIn(repoRoot, 'npm', ['pack', '--json', '--pack-destination', work, ...workspaces], minutes(4));
  expectSuccess(packed, 'npm pack');
  // The JSON follows what the scaffolder's prepack printed.
  const listed = JSON.parse(packed.output.slice(packed.output.search(/^\[/m))) as { name: string; filename: string }[];
  for (const entry of listed) tarballs.set(entry.name, join(work, entry.filename));
  expect([...tarballs.keys()].sort()).toEqual([...published].sort());
  prebuilds = await nativeSqlite();
}, minutes(8));

/**
 * better-sqlite3's binding, as this repository's `npm ci` compiled it, packed as prebuild-install looks for a local
 * prebuild: without it each app's install compiles SQLite again, about 4 minutes on 2 CPUs where no prebuilt binary can
 * be downloaded (docs/development.md#requirements). An app that resolves another version of better-sqlite3 finds no
 * file of its name here and compiles, as a partner's would.
 */
async function nativeSqlite(): Promise<string> {
  const dir = join(work, 'prebuilds');
  mkdirSync(dir);
  const sqlite = join(repoRoot, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string };
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  expectSuccess(await runIn(sqlite, 'tar', ['-czf', join(dir, file), 'build/Release/better_sqlite3.node'], minutes(1)), 'tar');
  return dir;
}

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** An app made by the packed scaffolder, its kit packages taken from the tarballs, installed. Returns its folder. */
async function makeApp(name: string, options: string[]): Promise<string> {
  const appDir = join(work, name);
  const made = await runIn(
    work,
    'npm',
    ['exec', '--yes', '--package', tarballs.get('create-partner-task-kit')!, '--', 'create-partner-task-kit', appDir, ...options],
    minutes(2),
  );
  expectSuccess(made, 'the scaffolder');
  const manifestFile = join(appDir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    partnerTaskKit: { version: string };
    overrides?: Record<string, string>;
  };
  const version = (JSON.parse(readFileSync(join(repoRoot, 'packages/server/package.json'), 'utf8')) as { version: string }).version;
  expect(manifest.partnerTaskKit).toEqual({ version });
  expect(manifest.dependencies['@partner-task-kit/server']).toBe(`^${version}`);
  expect(manifest.devDependencies['@partner-task-kit/testing']).toBe(`^${version}`);
  // Not on the registry yet: each kit package, and the kit packages they depend on, from its tarball. An override of a
  // direct dependency must repeat its range exactly, so both say the same file.
  manifest.overrides = {};
  for (const [packageName, file] of tarballs) {
    if (!packageName.startsWith('@partner-task-kit/')) continue;
    const list = packageName === '@partner-task-kit/testing' ? manifest.devDependencies : manifest.dependencies;
    list[packageName] = `file:${file}`;
    manifest.overrides[packageName] = `file:${file}`;
  }
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  const install = await runIn(appDir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], minutes(6), {
    npm_config_better_sqlite3_local_prebuilds: prebuilds,
  });
  expectSuccess(install, 'npm install');
  // The packages are real folders from the tarballs, not links into this repository.
  for (const entry of readdirSync(join(appDir, 'node_modules/@partner-task-kit'))) {
    const installed = join(appDir, 'node_modules/@partner-task-kit', entry);
    expect(lstatSync(installed).isSymbolicLink(), `${installed} is a link`).toBe(false);
    expect(realpathSync(installed).startsWith(repoRoot)).toBe(false);
  }
  return appDir;
}

/** The browser specs of `workflows` against the app's `npm start`, on a fresh port and SQLite file. */
function completeTasks(appDir: string, workflows: readonly string[]): Promise<Outcome> {
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
    {
      PACKED_APP_DIR: appDir,
      PACKED_OUTPUT_DIR: join(work, `${basename(appDir)}-results`),
      E2E_DATABASE: join(work, `${basename(appDir)}.db`),
    },
  );
}

describe('an app made by the packed scaffolder and installed from the packed packages', () => {
  it(
    'with every example: its npm test passes, and npm start completes a task of each example',
    async () => {
      const appDir = await makeApp('all-examples', ['--examples', 'all']);
      expectSuccess(await runIn(appDir, 'npm', ['test'], minutes(5)), "the app's npm test");
      const browser = await completeTasks(appDir, Object.keys(completions));
      expectSuccess(browser, 'the browser specs against the app');
      expect(browser.output).toMatch(/4 passed/);
    },
    minutes(20),
  );

  it(
    'with the default example alone: its npm test passes, and npm start completes a safety training',
    async () => {
      const appDir = await makeApp('one-example', []);
      expect(readdirSync(join(appDir, 'src/workflows')).sort()).toEqual(
        ['README.md', 'registry.server.ts', 'registry.ts', 'registry.views.ts', 'safety-training'].sort(),
      );
      expectSuccess(await runIn(appDir, 'npm', ['test'], minutes(5)), "the app's npm test");
      const browser = await completeTasks(appDir, ['safety-training']);
      expectSuccess(browser, 'the browser specs against the app');
      expect(browser.output).toMatch(/1 passed/);
    },
    minutes(12),
  );
});
