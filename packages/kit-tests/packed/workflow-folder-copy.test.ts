import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../helpers/project-copy';
import {
  completeTasksBeside,
  expectSuccess,
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
 * A workflow is a folder (docs/architecture.md#a-workflow-is-a-folder), as a partner meets it: in an app made by the
 * packed scaffolder with the availability example, a copy of that folder under a new id, with the id changed in its
 * definition, is the whole change. The app's tests, its build and a task of the copy in the preview pass; the folder
 * deleted, the app is as it was and its tests pass again.
 */
let work: string;
let tarballs: Tarballs;
let installEnvironment: Record<string, string>;

beforeAll(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'ptk-folder-copy-')));
  tarballs = await packKit(repoRoot, work);
  installEnvironment = await nativeSqlite(join(work, 'prebuilds'));
}, minutes(8));

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** What git sees changed in the app: `?? path` for a file it does not track, one line each. */
async function gitStatus(appDir: string): Promise<string[]> {
  const status = await runIn(appDir, 'git', ['status', '--porcelain', '--untracked-files=normal'], minutes(1));
  expectSuccess(status, 'git status');
  return status.output.split('\n').filter((line) => line.trim() !== '');
}

describe('an app made by the packed scaffolder, its availability folder copied under another id', () => {
  it(
    'needs no other change: npm test, npm run build and a task of the copy pass; the copy deleted, the app is green',
    async () => {
      const appDir = join(work, 'folder-copy');
      await scaffoldApp(appDir, tarballs, kitVersion(repoRoot), ['--workflow', 'availability']);
      await installKit(appDir, tarballs, installEnvironment);
      const git = (...args: string[]) =>
        runIn(appDir, 'git', ['-c', 'user.name=Partner', '-c', 'user.email=partner@example.com', ...args], minutes(1));
      expectSuccess(await git('init', '--quiet'), 'git init');
      expectSuccess(await git('add', '--all'), 'git add');
      expectSuccess(await git('commit', '--quiet', '--message', 'The app as made'), 'git commit');

      const copy = join(appDir, 'src/workflows/availability-copy');
      cpSync(join(appDir, 'src/workflows/availability'), copy, { recursive: true });
      const definition = join(copy, 'definition.ts');
      const source = readFileSync(definition, 'utf8');
      const idLine = "const AVAILABILITY_ID = 'availability';";
      expect(source, 'the example writes its id once, in this line').toContain(idLine);
      writeFileSync(definition, source.replace(idLine, "const AVAILABILITY_ID = 'availability-copy';"));
      expect(await gitStatus(appDir)).toEqual(['?? src/workflows/availability-copy/']);

      expectSuccess(await runIn(appDir, 'npm', ['test'], minutes(5)), "the app's npm test with the copy");
      expectSuccess(await runIn(appDir, 'npm', ['run', 'build'], minutes(5), installEnvironment), "the app's npm run build");
      const browser = await completeTasksBeside(appDir, ['availability'], undefined, { PACKED_WORKFLOW_ID: 'availability-copy' });
      expectSuccess(browser, 'a task of availability-copy in the preview');
      expect(browser.output).toMatch(/1 passed/);

      rmSync(copy, { recursive: true });
      expect(await gitStatus(appDir)).toEqual([]);
      expectSuccess(await runIn(appDir, 'npm', ['test'], minutes(5)), "the app's npm test once the copy is deleted");
    },
    minutes(25),
  );
});
