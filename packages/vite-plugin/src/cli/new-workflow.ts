import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as bundledPrettier from 'prettier';
import { WORKFLOWS_DIRECTORY } from '../workflow-folders.ts';
import { newWorkflowFiles } from './new-workflow-files.ts';
import { workflowNames } from './new-workflow-names.ts';

/**
 * `partner-task-kit new-workflow <id>` (the app's `npm run new-workflow -- <id>`), run in the app's folder (the working
 * directory): a new workflow in src/workflows/<id>/, a folder the page's build and the server find by itself
 * (docs/architecture.md#a-workflow-is-a-folder), with one step, its English and Spanish texts, and a unit test in
 * tests/app/. With `--branch`, a workflow whose first answer picks the next step (src/workflows/README.md#branches): a
 * choice, then one of two steps. Everything is checked before anything is written, so a refused id leaves the tree
 * as it was.
 */
const root = process.cwd();

/**
 * Lower-case words joined by single hyphens, starting with a letter: the id is a URL variable (`workflow=<id>`), the
 * folder's name, and is stored with every task, so it is kept plain. At most 40 characters, as a step id.
 */
const ID_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const ID_MAX_LENGTH = 40;

class RefusedError extends Error {}

function usage(): string {
  return 'Usage: npm run new-workflow -- <id> [--branch]   (a kebab-case id such as "sample-form"; --branch: a first answer picks the next step)';
}

function checkApp(): void {
  if (!existsSync(join(root, 'package.json')) || !existsSync(join(root, WORKFLOWS_DIRECTORY))) {
    throw new RefusedError(`no ${WORKFLOWS_DIRECTORY}/ here: run it in the app's folder, where its package.json is.`);
  }
  if (existsSync(join(root, WORKFLOWS_DIRECTORY, 'registry.ts'))) {
    throw new RefusedError(
      `${WORKFLOWS_DIRECTORY}/registry.ts lists the workflows by hand, as apps did before a workflow was a folder: ` +
        'run `npx partner-task-kit upgrade-folders` first (docs/upgrading.md says how).',
    );
  }
}

function checkId(id: string | undefined): string {
  if (id === undefined) throw new RefusedError(`Name the workflow to create.\n${usage()}`);
  if (!ID_PATTERN.test(id) || id.length > ID_MAX_LENGTH) {
    throw new RefusedError(
      `"${id}" is not a workflow id: use kebab-case, lower-case letters and digits in words joined by single hyphens, ` +
        `starting with a letter, at most ${ID_MAX_LENGTH} characters (for example "sample-form").`,
    );
  }
  const taken = [
    existsSync(join(root, WORKFLOWS_DIRECTORY, id)) && `${WORKFLOWS_DIRECTORY}/${id}/ exists`,
    existsSync(join(root, `tests/app/${id}-workflow.test.ts`)) && `tests/app/${id}-workflow.test.ts exists`,
  ].filter(Boolean);
  if (taken.length > 0) {
    throw new RefusedError(
      `The workflow id "${id}" is taken (${taken.join('; ')}). Choose another: an id is stored with every task that ` +
        'runs the workflow, so it is never reused for a different one.',
    );
  }
  return id;
}

/**
 * The kit's own style, which the app's files are written in: for an app with no Prettier configuration of its own (an
 * app made by create-partner-task-kit has none), so a new workflow looks like the examples beside it.
 */
const KIT_STYLE = { singleQuote: true, printWidth: 140, trailingComma: 'all' } as const;

type Prettier = Pick<typeof bundledPrettier, 'format' | 'resolveConfig'>;

/**
 * The app's Prettier when it has one, so `prettier --check` there agrees with what is written; otherwise this
 * package's own (a dependency): the templates' layout is loose, and a partner expects files as tidy as the examples.
 */
async function appPrettier(): Promise<Prettier> {
  let entry: string;
  try {
    entry = createRequire(join(root, 'package.json')).resolve('prettier');
  } catch {
    return bundledPrettier;
  }
  // require's resolution names its CommonJS build, whose exports an import() sees under `default`.
  const loaded = (await import(pathToFileURL(entry).href)) as Partial<Prettier> & { default?: Prettier };
  return loaded.resolveConfig === undefined ? loaded.default! : (loaded as Prettier);
}

async function main(args: readonly string[]): Promise<void> {
  checkApp();
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, options: { branch: { type: 'boolean', default: false } } });
  } catch (error) {
    throw new RefusedError(`${(error as Error).message}\n${usage()}`);
  }
  const { positionals, values } = parsed;
  if (positionals.length > 1) throw new RefusedError(`One workflow at a time: got ${positionals.join(', ')}.\n${usage()}`);
  const names = workflowNames(checkId(positionals[0]));
  const files = newWorkflowFiles(names, { branch: values.branch });
  const prettier = await appPrettier();
  const formatted: [string, string][] = [];
  for (const [path, text] of files) {
    const file = join(root, path);
    const options = (await prettier.resolveConfig(file)) ?? KIT_STYLE;
    formatted.push([file, await prettier.format(text, { ...options, filepath: file })]);
  }
  for (const [file, text] of formatted) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }

  const listed = files.map(([path]) => `  ${path}`).join('\n');
  process.stdout.write(`Created the workflow "${names.id}", a folder the app finds by itself:\n${listed}\n\nNext:
  npx vitest run tests/app/${names.id}-workflow.test.ts
  npm run dev, then choose "${names.id}" in the preview's Workflow select (http://localhost:8787/preview)
  replace the ${values.branch ? 'steps' : 'step'} with yours: the workflow guide, src/workflows/README.md, says how.
`);
}

export async function newWorkflow(args: readonly string[]): Promise<void> {
  try {
    await main(args);
  } catch (error) {
    if (!(error instanceof RefusedError)) throw error;
    process.stderr.write(`new-workflow: ${error.message}\n`);
    process.exitCode = 1;
  }
}
