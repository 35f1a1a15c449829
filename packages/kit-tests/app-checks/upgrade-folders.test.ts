import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowFolders } from '@partner-task-kit/vite-plugin/workflow-folders';
import { runIn, type Outcome } from '../helpers/project-copy';

/**
 * `partner-task-kit upgrade-folders` (docs/upgrading.md#a-workflow-is-a-folder) on this repository's app as it was on
 * the registries' layout: its last commit before a workflow was a folder, read from git into a temporary folder with
 * this checkout's node_modules. A clone without that commit (a shallow one) cannot run it, and says so.
 */
const projectRoot = join(import.meta.dirname, '../../..');
const registriesCommit = 'f0f0d12';
const appPaths = [
  'src',
  'server',
  'tests',
  'index.html',
  'package.json',
  'tsconfig.base.json',
  'tsconfig.json',
  'tsconfig.page.json',
  'tsconfig.server.json',
  'tsconfig.tests.json',
  'vite.config.ts',
];

const haveCommit = (await runIn(projectRoot, 'git', ['cat-file', '-e', `${registriesCommit}^{commit}`])).code === 0;
if (!haveCommit)
  process.stderr.write(`upgrade-folders test skipped: this clone lacks ${registriesCommit}, the registries' layout (a shallow clone?)\n`);

const bin = join(projectRoot, 'packages/vite-plugin/src/bin.ts');
let app = '';
let moved: Outcome;
const read = (file: string) => readFileSync(join(app, file), 'utf8');
const upgradeFolders = (cwd: string) => runIn(cwd, process.execPath, ['--import', 'tsx', bin, 'upgrade-folders']);

/** The app of `commit` in a new temporary folder. */
async function appAt(commit: string): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'ptk-registries-'));
  const archive = join(folder, 'app.tar');
  const made = await runIn(projectRoot, 'git', ['archive', '--output', archive, commit, ...appPaths]);
  if (made.code !== 0) throw new Error(`git archive: ${made.output}`);
  const unpacked = await runIn(folder, 'tar', ['-xf', archive]);
  if (unpacked.code !== 0) throw new Error(`tar: ${unpacked.output}`);
  rmSync(archive);
  symlinkSync(realpathSync(join(projectRoot, 'node_modules')), join(folder, 'node_modules'));
  return folder;
}

beforeAll(async () => {
  if (!haveCommit) return;
  app = await appAt(registriesCommit);
  moved = await upgradeFolders(app);
}, 120_000);
afterAll(() => {
  if (app !== '') rmSync(app, { recursive: true, force: true });
});

describe.skipIf(!haveCommit)("partner-task-kit upgrade-folders on the examples' registries", () => {
  it('deletes the three registries and the step switches, and says so', () => {
    for (const file of [
      'registry.ts',
      'registry.views.ts',
      'registry.server.ts',
      'safety-training/safety-training-step.tsx',
      'safety-training/later-steps.tsx',
    ]) {
      expect(existsSync(join(app, 'src/workflows', file)), file).toBe(false);
      expect(moved.output).toContain(`deleted src/workflows/${file}`);
    }
  });

  it("gives each step of each example its screen, the one its switch rendered, and work-authorization's done screen", () => {
    expect(read('src/workflows/safety-training/steps/welcome.tsx')).toBe("export { WelcomeStep as default } from '../welcome-step';\n");
    // Loaded lazily by its switch: a step is its own chunk under the convention, so the screen itself is re-exported.
    expect(read('src/workflows/work-authorization/steps/photos.tsx')).toBe("export { PhotosStep as default } from '../photos-step';\n");
    expect(read('src/workflows/work-authorization/done.tsx')).toBe("export { WorkAuthorizationDone as default } from './done-screen';\n");
    expect(read('src/workflows/safety-training/texts.es.ts')).toMatch(/\nexport default safetyTrainingTextsEs;\n$/);
  });

  it("leaves folders the build's and the server's checks accept", async () => {
    const loaded = await loadWorkflowFolders(app, ['en', 'es'], (file) => tsImport(pathToFileURL(file).href, import.meta.url));
    expect(loaded.folders.map((folder) => folder.id)).toEqual([
      'availability',
      'background-check',
      'safety-training',
      'work-authorization',
    ]);
    expect([...loaded.folders[2]!.steps.keys()]).toEqual(['policy', 'quiz', 'signature', 'welcome']);
  }, 60_000);

  it('rewrites the entries, the scripts and the types, and names the default workflow the registry named', () => {
    expect(read('src/main.tsx')).toContain("mountTaskPage(root, () => import('virtual:partner-task-kit/screens'), shellTexts);");
    expect(read('server/main.ts')).toContain("import workflows from 'virtual:partner-task-kit/workflows';");
    expect(read('server/main.ts')).toContain("{ workflows, defaultWorkflow: 'safety-training', migrations: appMigrations }");
    expect(read('vite.config.ts')).not.toMatch(/registry/);
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.migrate).toBe('node --import @partner-task-kit/vite-plugin/register server/main.ts migrate');
    expect(scripts.typecheck).toBe('partner-task-kit check && tsc -b');
    expect(scripts['build:server']).toBe('partner-task-kit build-server');
    expect(read('tsconfig.page.json')).toContain('"types": ["vite/client", "@partner-task-kit/vite-plugin/client"]');
  });

  it("lists what is the partner's: the tests that imported a deleted module, and nothing mechanical", () => {
    const left = moved.output.slice(moved.output.indexOf('Left to you:')).split('\n\n')[0]!.split('\n').slice(1);
    expect(left.length).toBeGreaterThan(0);
    for (const line of left) expect(line).toMatch(/^ {2}tests\/app\/[a-z-]+\.test\.ts imports \S+, which is gone$/);
  });

  it('has nothing to do the second time', async () => {
    const again = await upgradeFolders(app);
    expect(again.output).toContain('the workflows are folders already; nothing to do');
    expect(again.code).toBe(0);
  });

  it('changes nothing in an app whose registry it cannot read, and says which file', async () => {
    const other = await appAt(registriesCommit);
    try {
      const registry = join(other, 'src/workflows/registry.ts');
      writeFileSync(registry, `import { gone } from './gone/definition';\n${readFileSync(registry, 'utf8')}`);
      const before = readFileSync(join(other, 'server/main.ts'), 'utf8');
      const refused = await upgradeFolders(other);
      expect(refused.output).toContain('src/workflows/registry.ts imports ./gone/definition, which is not there');
      expect(refused.output).toContain('Nothing was changed.');
      expect(refused.code).toBe(1);
      expect(readFileSync(join(other, 'server/main.ts'), 'utf8')).toBe(before);
      expect(existsSync(join(other, 'src/workflows/registry.views.ts'))).toBe(true);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);
});
