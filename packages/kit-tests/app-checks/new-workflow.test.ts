import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, runIn, type Outcome } from '../helpers/project-copy';

/**
 * `npm run new-workflow -- sample-form` in a copy of this project, then what a partner runs next: the type check, the
 * lint, the new unit test, the preview. This checkout's tree is never touched.
 *
 * The command runs as an app's `npm run new-workflow` runs it (create-partner-task-kit's template-base/package.json):
 * the bin @partner-task-kit/vite-plugin declares, `partner-task-kit new-workflow`, compiled in its dist/, in the app's
 * folder. It is named through the package's manifest rather than node_modules/.bin, which npm leaves out for a workspace
 * package installed before its dist/ is built.
 */
let copy = '';
let made: Outcome;
let branched: Outcome;

const runInCopy = (command: string, args: readonly string[], timeoutMs?: number) => runIn(copy, command, args, timeoutMs);
const bin = (tool: string) => join(copy, 'node_modules/.bin', tool);
const readCopy = (file: string) => readFileSync(join(copy, file), 'utf8');
const vitePlugin = (copy: string) => join(copy, 'node_modules/@partner-task-kit/vite-plugin');
/** The file the package's `bin` names for `partner-task-kit`, as npm links it. */
const kitBin = (copy: string) => {
  const manifest = JSON.parse(readFileSync(join(vitePlugin(copy), 'package.json'), 'utf8')) as { bin: Record<string, string> };
  return join(vitePlugin(copy), manifest.bin['partner-task-kit']!);
};
const kitCli = (args: readonly string[]) => runInCopy(process.execPath, [kitBin(copy), ...args]);
const newWorkflow = (id: string) => kitCli(['new-workflow', id]);

const createdFiles = [
  'src/workflows/sample-form',
  'tests/app/sample-form-workflow.test.ts',
  'src/workflows/sample-branch',
  'tests/app/sample-branch-workflow.test.ts',
];

/** The app's files and their text: src/, server/, tests/ and its configuration at the root. */
function appFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const folder of ['src', 'server', 'tests']) {
    for (const file of readdirSync(join(copy, folder), { recursive: true, withFileTypes: true })) {
      if (file.isFile())
        files.set(relative(copy, join(file.parentPath, file.name)), readFileSync(join(file.parentPath, file.name), 'utf8'));
    }
  }
  for (const file of readdirSync(copy).filter((name) => /^(package\.json|tsconfig.*\.json|vite\.config\.ts)$/.test(name)))
    files.set(file, readCopy(file));
  return files;
}
let before: Map<string, string>;

beforeAll(async () => {
  copy = await copyProject();
  before = appFiles();
  made = await newWorkflow('sample-form');
  branched = await kitCli(['new-workflow', 'sample-branch', '--branch']);
}, 120_000);
afterAll(() => {
  if (copy !== '') rmSync(copy, { recursive: true, force: true });
});

describe('npm run new-workflow -- sample-form', () => {
  it("is the kit's bin, which an installed package runs, and an app's script calls", () => {
    expect(readFileSync(kitBin(copy), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    const template = JSON.parse(readCopy('packages/create-partner-task-kit/template-base/package.json')) as {
      scripts: Record<string, string>;
    };
    expect(template.scripts).toMatchObject({ dev: 'partner-task-kit dev', 'new-workflow': 'partner-task-kit new-workflow' });
  });

  it('creates a folder of one step with its texts, and its unit test, and changes no other file', async () => {
    expect(made.output).toContain('Created the workflow "sample-form"');
    expect(made.code).toBe(0);
    expect(readdirSync(join(copy, 'src/workflows/sample-form'), { recursive: true }).sort()).toEqual([
      'definition.ts',
      'steps',
      'steps/contact.tsx',
      'texts.en.ts',
      'texts.es.ts',
      'texts.ts',
    ]);
    expect(readCopy('src/workflows/sample-form/definition.ts')).toContain('export default sampleFormWorkflow;');
    expect(readCopy('src/workflows/sample-form/steps/contact.tsx')).toContain('export default function Contact(');
    // The two workflows' folders and tests alone: nothing lists a workflow anywhere else.
    const after = appFiles();
    const changed = [...after.keys()].filter((file) => after.get(file) !== before.get(file));
    expect(changed.filter((file) => !createdFiles.some((created) => file.startsWith(created)))).toEqual([]);
    expect(changed.length).toBeGreaterThan(0);
  });

  it('with --branch, creates a workflow whose first answer picks the next step, a screen per step', () => {
    expect(branched.output).toContain('Created the workflow "sample-branch"');
    expect(branched.code).toBe(0);
    expect(readdirSync(join(copy, 'src/workflows/sample-branch'), { recursive: true }).sort()).toEqual([
      'definition.ts',
      'steps',
      'steps/channel.tsx',
      'steps/contact.tsx',
      'steps/email.tsx',
      'texts.en.ts',
      'texts.es.ts',
      'texts.ts',
    ]);
    const definition = readCopy('src/workflows/sample-branch/definition.ts');
    expect(definition).toContain('stepsOf(');
    expect(definition).toContain("next: { contact: (answers) => answers['channel']?.channel === 'phone', email: () => true }");
  });

  it('refuses an id that is not kebab-case or is taken, saying why, and writes nothing', async () => {
    const before = readdirSync(join(copy, 'src/workflows')).sort();
    const badName = await newWorkflow('Sample_Form');
    expect(badName.output).toContain('"Sample_Form" is not a workflow id: use kebab-case');
    expect(badName.code).toBe(1);
    for (const id of ['availability', 'sample-form']) {
      const taken = await newWorkflow(id);
      expect(taken.output).toContain(`The workflow id "${id}" is taken`);
      expect(taken.code).toBe(1);
    }
    // Run outside the app's folder, it says where to run it: it takes the app from the working directory.
    const elsewhere = await runIn(join(copy, 'docs'), process.execPath, [kitBin(copy), 'new-workflow', 'sample-other']);
    expect(elsewhere.output).toContain("run it in the app's folder");
    expect(elsewhere.code).toBe(1);
    expect(readdirSync(join(copy, 'src/workflows')).sort()).toEqual(before);
    expect(existsSync(join(copy, 'src/workflows/Sample_Form'))).toBe(false);
  }, 60_000);

  it('leaves a project that passes the type check', async () => {
    const checked = await runInCopy(bin('tsc'), ['-b'], 150_000);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  }, 160_000);

  it('leaves files that pass eslint and prettier, and nothing unused for knip', async () => {
    const files = createdFiles;
    const linted = await runInCopy(bin('eslint'), ['--max-warnings', '0', ...files]);
    expect(linted.output).toBe('');
    const formatted = await runInCopy(bin('prettier'), ['--check', ...files]);
    expect(formatted.output).toContain('All matched files use Prettier code style!');
    const unused = await runInCopy(bin('knip'), ['--no-config-hints']);
    expect(unused.output).toBe('');
    expect([linted.code, formatted.code, unused.code]).toEqual([0, 0, 0]);
  }, 120_000);

  it("writes unit tests that pass, the branch's path included", async () => {
    const tested = await runInCopy(bin('vitest'), [
      'run',
      'tests/app/sample-form-workflow.test.ts',
      'tests/app/sample-branch-workflow.test.ts',
    ]);
    expect(tested.output).toMatch(/Test Files\s+2 passed/);
    expect(tested.output).toMatch(/Tests\s+\d+ passed/);
    expect(tested.code).toBe(0);
  }, 60_000);

  it('is found by its folder, in the order of the ids, with its own title and estimate for a new assignment', async () => {
    // The folders as the build and the server read them (docs/architecture.md#a-workflow-is-a-folder), and the
    // preview's launch form's defaults for one of them.
    const script = `
      const { pathToFileURL } = await import('node:url');
      const { tsImport } = await import('tsx/esm/api');
      const { loadWorkflowFolders } = await import('./packages/vite-plugin/src/workflow-folders.ts');
      const { workflowDefaults } = await import('./packages/dev/src/preview/assignment-defaults.ts');
      const { definitions } = await loadWorkflowFolders(process.cwd(), ['en', 'es'], (file) => tsImport(pathToFileURL(file).href, import.meta.url));
      const workflows = [...definitions.values()].map((w) => ({ id: w.id, title: w.title, steps: w.steps.length, estimatedMinutes: w.estimatedMinutes }));
      const defaults = workflowDefaults({ workflows, defaultWorkflow: 'safety-training' }, 'sample-form');
      console.log(JSON.stringify({ workflows, defaults }));`;
    const listed = await runInCopy(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], 30_000);
    expect(listed.code, listed.output).toBe(0);
    const { workflows, defaults } = JSON.parse(listed.output) as { workflows: { id: string }[]; defaults: unknown };
    expect(workflows.map((workflow) => workflow.id)).toEqual([
      'availability',
      'background-check',
      'safety-training',
      'sample-branch',
      'sample-form',
      'work-authorization',
    ]);
    expect(workflows.filter((workflow) => workflow.id.startsWith('sample-'))).toEqual([
      { id: 'sample-branch', title: 'Sample branch', steps: 3, estimatedMinutes: 2 },
      { id: 'sample-form', title: 'Sample form', steps: 1, estimatedMinutes: 2 },
    ]);
    expect(defaults).toEqual({ title: 'Sample form', estimatedCompletionTime: '2 minutes' });
  }, 60_000);
});
