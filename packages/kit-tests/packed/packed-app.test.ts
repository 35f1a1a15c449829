import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppManifest } from '@partner-task-kit/vite-plugin/cli/upgrade-plan';
import { startDev, stopGroup } from '../helpers/dev-process';
import { runIn } from '../helpers/project-copy';
import {
  completeTasksBeside,
  exampleIds,
  expectKitFromTarballs,
  expectSuccess,
  installedVersion,
  installKit,
  kitVersion,
  minutes,
  nativeSqlite,
  packKit,
  repoRoot,
  scaffoldApp,
  type Tarballs,
} from './packed-kit';

/**
 * The acceptance test of the packages as a partner gets them: every published package packed with `npm pack`, an app
 * made by the packed scaffolder in a folder outside this repository, installed from those tarballs alone (nothing
 * linked to packages/), then the app's own `npm test` and its `npm start` in emulator mode with one task of each
 * example driven to `completed` by the browser specs that do so here (playwright.packed.config.ts). The second app is
 * made by `npm run create-app`, which packs and installs the same way (docs/upgrading.md#an-app-from-a-clone-of-the-kit).
 */
let work: string;
let tarballs: Tarballs;
/** What points each install at the local build of better-sqlite3 (nativeSqlite). */
let installEnvironment: Record<string, string>;

beforeAll(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'ptk-packed-')));
  tarballs = await packKit(repoRoot, work);
  installEnvironment = await nativeSqlite(join(work, 'prebuilds'));
}, minutes(8));

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** An app made by the packed scaffolder, its kit packages taken from the tarballs, installed. Returns its folder. */
async function makeApp(name: string, options: string[]): Promise<string> {
  const appDir = join(work, name);
  await scaffoldApp(appDir, tarballs, kitVersion(repoRoot), options);
  await installKit(appDir, tarballs, installEnvironment);
  return appDir;
}

describe('an app made by the packed scaffolder and installed from the packed packages', () => {
  it(
    'with every example: its npm test passes, and npm start completes a task of each example',
    async () => {
      const appDir = await makeApp('all-examples', ['--examples', 'all']);
      expectSuccess(await runIn(appDir, 'npm', ['test'], minutes(5)), "the app's npm test");
      const browser = await completeTasksBeside(appDir, exampleIds);
      expectSuccess(browser, 'the browser specs against the app');
      expect(browser.output).toMatch(/4 passed/);
    },
    minutes(20),
  );

  it(
    'made by npm run create-app from this clone: npm ci finds its packages again after a move, new-workflow adds one, npm test passes, npm run dev serves, npm start completes a training',
    async () => {
      const madeDir = join(work, 'from-clone');
      expectSuccess(
        await runIn(repoRoot, 'npm', ['run', 'create-app', '--', madeDir], minutes(8), installEnvironment),
        'npm run create-app',
      );
      // The kit's packages stay in the app, named relative to it: moved elsewhere, its `npm ci` installs them again.
      const version = kitVersion(repoRoot);
      const appDir = join(work, 'one-example');
      renameSync(madeDir, appDir);
      const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as AppManifest;
      expect(manifest.partnerTaskKit).toEqual({ version });
      expect(manifest.devDependencies?.['@partner-task-kit/testing']).toBe(`file:.kit-packages/partner-task-kit-testing-${version}.tgz`);
      const reinstall = await runIn(appDir, 'npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], minutes(6), installEnvironment);
      expectSuccess(reinstall, 'npm ci in the moved app');
      expectKitFromTarballs(appDir);
      expect(installedVersion(appDir, '@partner-task-kit/testing')).toBe(version);
      expect(readdirSync(join(appDir, 'src/workflows')).sort()).toEqual(['README.md', 'safety-training']);
      // The kit's commands as the app runs them: a new workflow its npm test then covers, and the dev server.
      expectSuccess(await runIn(appDir, 'npm', ['run', 'new-workflow', '--', 'sample-form'], minutes(1)), 'npm run new-workflow');
      expect(existsSync(join(appDir, 'src/workflows/sample-form'))).toBe(true);
      expect(existsSync(join(appDir, 'tests/app/sample-form-workflow.test.ts'))).toBe(true);
      expectSuccess(await runIn(appDir, 'npm', ['test'], minutes(5)), "the app's npm test");
      const children: ChildProcess[] = [];
      try {
        const dev = await startDev(appDir, 'dev', children);
        const preview = await fetch(`http://127.0.0.1:${dev.port}/preview`);
        expect(preview.status).toBe(200);
      } finally {
        await Promise.all(children.map((child) => stopGroup(child)));
      }
      const browser = await completeTasksBeside(appDir, ['safety-training']);
      expectSuccess(browser, 'the browser specs against the app');
      expect(browser.output).toMatch(/1 passed/);
    },
    minutes(12),
  );
});
