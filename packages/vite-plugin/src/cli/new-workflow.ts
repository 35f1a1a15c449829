import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as bundledPrettier from 'prettier';
import {
  branchContactScreenFile,
  branchDefinitionFile,
  branchStepSwitchFile,
  branchSteps,
  branchTextsFile,
  branchTextsTypeFile,
  branchUnitTestFile,
  choiceScreenFile,
  definitionFile,
  emailScreenFile,
  stepScreenFile,
  stepSwitchFile,
  textsFile,
  textsTypeFile,
  unitTestFile,
  workflowNames,
  type WorkflowNames,
} from './new-workflow-templates.ts';
import { RegistryShapeError, withObjectEntry } from './registry-edits.ts';

/**
 * `partner-task-kit new-workflow <id>` (the app's `npm run new-workflow -- <id>`), run in the app's folder (the working
 * directory): a new workflow in src/workflows/<id>/ with one step, its English and Spanish texts
 * and a unit test, registered in registry.ts, registry.views.ts and registry.server.ts. With `--branch`, a workflow
 * whose first answer picks the next step (src/workflows/README.md#branches): a choice, then one of two steps. Everything is checked before
 * anything is written, so a refused id or a registry it cannot read leaves the tree as it was.
 */
const root = process.cwd();
const workflowsDir = join(root, 'src/workflows');

/**
 * Lower-case words joined by single hyphens, starting with a letter: the id is a URL variable (`workflow=<id>`), a
 * folder and file name prefix, and is stored with every task, so it is kept plain. At most 40 characters, as a step id.
 */
const ID_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const ID_MAX_LENGTH = 40;

class RefusedError extends Error {}

function usage(): string {
  return 'Usage: npm run new-workflow -- <id> [--branch]   (a kebab-case id such as "sample-form"; --branch: a first answer picks the next step)';
}

function checkId(id: string | undefined, registry: string): string {
  if (id === undefined) throw new RefusedError(`Name the workflow to create.\n${usage()}`);
  if (!ID_PATTERN.test(id) || id.length > ID_MAX_LENGTH) {
    throw new RefusedError(
      `"${id}" is not a workflow id: use kebab-case, lower-case letters and digits in words joined by single hyphens, ` +
        `starting with a letter, at most ${ID_MAX_LENGTH} characters (for example "sample-form").`,
    );
  }
  const taken = [
    existsSync(join(workflowsDir, id)) && `src/workflows/${id}/ exists`,
    new RegExp(`['"]${id}['"]`).test(registry) && 'src/workflows/registry.ts names it',
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

function registryEdits(names: WorkflowNames, sources: { registry: string; views: string; server: string }) {
  const { id, camel } = names;
  const definitionImport = `import { ${camel}Workflow } from './${id}/definition';`;
  // After the last import of a workflow definition, so the imports stay one per workflow in one block.
  const imports = [...sources.registry.matchAll(/^import .* from '\.\/[^']+\/definition';$/gm)];
  const lastImport = imports.at(-1);
  const ids = /const workflowIds = \[([^\]]*)\] as const;/.exec(sources.registry);
  if (!lastImport || !ids) {
    throw new RefusedError(
      'src/workflows/registry.ts no longer has the imports and `const workflowIds = [...] as const` this script edits.',
    );
  }
  const afterImport = lastImport.index + lastImport[0].length;
  let registry = `${sources.registry.slice(0, afterImport)}\n${definitionImport}${sources.registry.slice(afterImport)}`;
  const listed = ids[1]!
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  registry = registry.replace(ids[0], `const workflowIds = [${[...listed, `'${id}'`].join(', ')}] as const;`);
  registry = withObjectEntry(registry, 'src/workflows/registry.ts', 'const workflows = {', `'${id}': { definition: ${camel}Workflow }`);
  const views = withObjectEntry(
    sources.views,
    'src/workflows/registry.views.ts',
    'const loaders = {',
    `'${id}': () => import('./${id}/${id}-step')`,
  );
  // Nothing graded, so nothing secret: the line says so, and the type check wants one per workflow.
  const server = withObjectEntry(sources.server, 'src/workflows/registry.server.ts', 'const serverModules = {', `'${id}': undefined`);
  return { registry, views, server };
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

async function writeFormatted(prettier: Prettier, file: string, text: string): Promise<void> {
  const options = (await prettier.resolveConfig(file)) ?? KIT_STYLE;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
}

async function main(args: readonly string[]): Promise<void> {
  if (!existsSync(join(workflowsDir, 'registry.ts'))) {
    throw new RefusedError("src/workflows/registry.ts not found: run it in the app's folder, where its package.json is.");
  }
  const { positionals, values } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { branch: { type: 'boolean', default: false } },
  });
  if (positionals.length > 1) throw new RefusedError(`One workflow at a time: got ${positionals.join(', ')}.\n${usage()}`);
  const paths = {
    registry: join(workflowsDir, 'registry.ts'),
    views: join(workflowsDir, 'registry.views.ts'),
    server: join(workflowsDir, 'registry.server.ts'),
  };
  const sources = {
    registry: readFileSync(paths.registry, 'utf8'),
    views: readFileSync(paths.views, 'utf8'),
    server: readFileSync(paths.server, 'utf8'),
  };
  const names = workflowNames(checkId(positionals[0], sources.registry));
  const edited = registryEdits(names, sources);
  const folder = join(workflowsDir, names.id);
  const branch = values.branch ? branchSteps(names) : undefined;
  const workflowFiles: [string, string][] = branch
    ? [
        [join(folder, 'definition.ts'), branchDefinitionFile(names)],
        [join(folder, 'texts.ts'), branchTextsTypeFile(names)],
        [join(folder, 'texts.en.ts'), branchTextsFile(names, 'en')],
        [join(folder, 'texts.es.ts'), branchTextsFile(names, 'es')],
        [join(folder, `${names.id}-step.tsx`), branchStepSwitchFile(names)],
        [join(folder, `${branch.choice}-step.tsx`), choiceScreenFile(names)],
        [join(folder, `${names.step}-step.tsx`), branchContactScreenFile(names)],
        [join(folder, `${branch.email}-step.tsx`), emailScreenFile(names)],
        [join(root, `tests/app/${names.id}-workflow.test.ts`), branchUnitTestFile(names)],
      ]
    : [
        [join(folder, 'definition.ts'), definitionFile(names)],
        [join(folder, 'texts.ts'), textsTypeFile(names)],
        [join(folder, 'texts.en.ts'), textsFile(names, 'en')],
        [join(folder, 'texts.es.ts'), textsFile(names, 'es')],
        [join(folder, `${names.id}-step.tsx`), stepSwitchFile(names)],
        [join(folder, `${names.step}-step.tsx`), stepScreenFile(names)],
        [join(root, `tests/app/${names.id}-workflow.test.ts`), unitTestFile(names)],
      ];
  const files: [string, string][] = [
    ...workflowFiles,
    [paths.registry, edited.registry],
    [paths.views, edited.views],
    [paths.server, edited.server],
  ];
  const prettier = await appPrettier();
  for (const [file, text] of files) await writeFormatted(prettier, file, text);

  const listed = files.map(([file]) => `  ${relative(root, file)}`).join('\n');
  process.stdout.write(`Created the workflow "${names.id}" and registered it:\n${listed}\n\nNext:
  npx vitest run tests/app/${names.id}-workflow.test.ts
  npm run dev, then choose "${names.id}" in the preview's Workflow select (http://localhost:8787/preview)
  replace the ${branch ? 'steps' : `"${names.step}" step`} with yours: the workflow guide, src/workflows/README.md, says how.
`);
}

export async function newWorkflow(args: readonly string[]): Promise<void> {
  try {
    await main(args);
  } catch (error) {
    if (!(error instanceof RefusedError) && !(error instanceof RegistryShapeError)) throw error;
    process.stderr.write(`new-workflow: ${error.message}\n`);
    process.exitCode = 1;
  }
}
