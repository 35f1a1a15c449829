import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { WORKFLOWS_DIRECTORY } from '../workflow-folders.ts';
import {
  clientTypes,
  withClientTypes,
  withFolderScripts,
  withoutRegistryOptions,
  withScreensModule,
  withWorkflowsModule,
} from './upgrade-folders-entries.ts';
import { readRegistries, registryFiles, type FolderImport } from './upgrade-folders-registries.ts';
import { moveScreens, textsDefaults } from './upgrade-folders-screens.ts';
import { hasDefaultExport, nodesOfType, parseModule, SourceShapeError, withDefaultExport } from './source-edits.ts';

/**
 * What `partner-task-kit upgrade-folders` changes in an app on the registries' layout, computed whole before anything
 * is written (docs/upgrading.md#a-workflow-is-a-folder): files to write and to delete, what was done, and what is
 * left to the partner. `load` imports one of the app's modules (the command: through tsx).
 */
export interface FolderMove {
  writes: Map<string, string>;
  deletes: string[];
  done: string[];
  left: string[];
}

interface LoadedDefinition {
  id: string;
  steps: string[];
}

async function definitionOf(
  load: (file: string) => Promise<Record<string, unknown>>,
  root: string,
  each: FolderImport,
): Promise<LoadedDefinition> {
  const value = (await load(join(root, each.file)))[each.exported] as { id?: unknown; steps?: unknown } | undefined;
  if (typeof value?.id !== 'string' || !Array.isArray(value.steps)) {
    throw new SourceShapeError(`${each.file}: its export ${each.exported}, which registry.ts lists, is no workflow definition`);
  }
  return { id: value.id, steps: value.steps.map((step: { id: string }) => step.id) };
}

/** The folder's `definition.ts` or `definition.server.ts` given a default export: the module the registry imported. */
function defaultExportOf(root: string, each: FolderImport, name: 'definition' | 'definition.server', move: FolderMove): void {
  const folder = `${WORKFLOWS_DIRECTORY}/${each.folder}`;
  const conventional = ['.ts', '.js'].map((extension) => `${folder}/${name}${extension}`);
  if (conventional.includes(each.file)) {
    const code = move.writes.get(each.file) ?? readFileSync(join(root, each.file), 'utf8');
    if (hasDefaultExport(parseModule(each.file, code))) return;
    move.writes.set(each.file, withDefaultExport(code, each.exported));
    move.done.push(`${each.file}: export default ${each.exported}`);
  } else if (!conventional.some((file) => existsSync(join(root, file)))) {
    const from = `./${posix.basename(each.file).replace(/\.[jt]sx?$/, '')}`;
    move.writes.set(conventional[0]!, `export { ${each.exported} as default } from '${from}';\n`);
    move.done.push(`${conventional[0]}: the default export, ${each.exported} of ${each.file}`);
  } else {
    move.left.push(`${conventional[0]}: make ${each.exported} of ${each.file} its default export`);
  }
}

const moduleFile = /\.(?:[cm]?[jt]sx?)$/;

/** The app's modules, from its root: src/, server/ and tests/. */
function appModules(root: string): string[] {
  const files: string[] = [];
  const visit = (folder: string) => {
    if (!existsSync(join(root, folder))) return;
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const file = `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') visit(file);
      } else if (moduleFile.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(file);
    }
  };
  for (const folder of ['src', 'server', 'tests']) visit(folder);
  return files;
}

/** Each module left that imports one the move deletes, which its author changes. */
function importersOf(root: string, deleted: readonly string[], skip: readonly string[]): string[] {
  const gone = new Set(deleted.map((file) => file.replace(moduleFile, '')));
  return appModules(root).flatMap((file) => {
    if (skip.includes(file) || deleted.includes(file)) return [];
    const program = parseModule(file, readFileSync(join(root, file), 'utf8'));
    const specifiers = [
      ...program.body.flatMap((statement) =>
        (statement.type === 'ImportDeclaration' ||
          statement.type === 'ExportNamedDeclaration' ||
          statement.type === 'ExportAllDeclaration') &&
        statement.source !== null
          ? [statement.source.value]
          : [],
      ),
      ...nodesOfType(program, 'ImportExpression').flatMap((each) => (each.source.type === 'Literal' ? [String(each.source.value)] : [])),
    ];
    const named = [
      ...new Set(
        specifiers.filter(
          (specifier) => specifier.startsWith('.') && gone.has(posix.join(posix.dirname(file), specifier).replace(moduleFile, '')),
        ),
      ),
    ];
    return named.map((specifier) => `${file} imports ${specifier}, which is gone`);
  });
}

export async function planFolderMove(root: string, load: (file: string) => Promise<Record<string, unknown>>): Promise<FolderMove> {
  const move: FolderMove = { writes: new Map(), deletes: [], done: [], left: [] };
  const registries = readRegistries(root);
  const definitions = new Map<string, LoadedDefinition>();
  for (const each of registries.definitions) {
    const definition = await definitionOf(load, root, each);
    definitions.set(each.folder, definition);
    if (definition.id !== each.folder) {
      move.left.push(
        `${WORKFLOWS_DIRECTORY}/${each.folder}/: rename the folder ${definition.id}, its workflow's id (and the imports of its files)`,
      );
    }
    defaultExportOf(root, each, 'definition', move);
  }
  for (const each of registries.servers) defaultExportOf(root, each, 'definition.server', move);

  for (const each of registries.switches) {
    const folder = `${WORKFLOWS_DIRECTORY}/${each.folder}`;
    const steps = definitions.get(each.folder)?.steps ?? [];
    const screens = moveScreens(root, folder, each.file, steps);
    for (const [file, text] of screens.writes) move.writes.set(file, text);
    if (screens.writes.size > 0)
      move.done.push(
        `${folder}/steps/: ${[...screens.writes.keys()].map((file) => posix.basename(file)).join(', ')}, each the screen its step switch rendered`,
      );
    move.left.push(...screens.stepsLeft, ...screens.endScreensLeft);
    // The switch goes once every step has its screen: until then it is where the partner finds the rest.
    if (screens.stepsLeft.length === 0) move.deletes.push(...screens.switchFiles);
  }
  for (const folder of definitions.keys()) {
    const texts = textsDefaults(root, `${WORKFLOWS_DIRECTORY}/${folder}`);
    for (const [file, text] of texts.writes) move.writes.set(file, text);
    if (texts.writes.size > 0) move.done.push(`${[...texts.writes.keys()].join(', ')}: a default export each`);
    move.left.push(...texts.left);
  }
  move.deletes.push(...registryFiles.filter((file) => existsSync(join(root, file))));

  const defaultId =
    registries.defaultWorkflow === undefined
      ? undefined
      : 'id' in registries.defaultWorkflow
        ? registries.defaultWorkflow.id
        : definitions.get(registries.defaultWorkflow.definition.folder)?.id;
  const several = definitions.size > 1;
  if (several && defaultId === undefined) move.left.push("server/main.ts: name the default workflow, runKit's defaultWorkflow: '<id>'");
  entries(root, move, several ? defaultId : undefined);
  move.left.push(...importersOf(root, move.deletes, ['src/main.tsx', 'server/main.ts']));
  return move;
}

/** The entries, vite.config.ts, package.json's scripts and the tsconfigs' types; a file in another shape is left. */
function entries(root: string, move: FolderMove, defaultWorkflow: string | undefined): void {
  const edit = (file: string, change: (code: string) => string, what: string) => {
    if (!existsSync(join(root, file))) return;
    const code = readFileSync(join(root, file), 'utf8');
    try {
      const next = change(code);
      if (next !== code) {
        move.writes.set(file, next);
        move.done.push(`${file}: ${what}`);
      }
    } catch (error) {
      if (!(error instanceof SourceShapeError)) throw error;
      move.left.push(`${error.message}: do it by hand (docs/upgrading.md#a-workflow-is-a-folder)`);
    }
  };
  edit('src/main.tsx', (code) => withScreensModule('src/main.tsx', code), "the screens from 'virtual:partner-task-kit/screens'");
  edit(
    'server/main.ts',
    (code) => withWorkflowsModule('server/main.ts', code, defaultWorkflow),
    `the workflows from 'virtual:partner-task-kit/workflows'${defaultWorkflow === undefined ? '' : `, defaultWorkflow: '${defaultWorkflow}'`}`,
  );
  for (const file of ['vite.config.ts', 'vite.config.mts', 'vite.config.js']) {
    edit(file, (code) => withoutRegistryOptions(file, code), 'partnerTaskKit() without the workflows and views options');
  }
  edit(
    'package.json',
    (code) => {
      const manifest = JSON.parse(code) as { scripts?: Record<string, string> };
      if (manifest.scripts === undefined) return code;
      return `${JSON.stringify({ ...manifest, scripts: withFolderScripts(manifest.scripts) }, null, 2)}\n`;
    },
    'scripts with the register hook, partner-task-kit build-server and partner-task-kit check',
  );
  const tsconfigs = readdirSync(root).filter((name) => /^tsconfig(\..+)?\.json$/.test(name));
  let typed = false;
  for (const file of tsconfigs) {
    const code = readFileSync(join(root, file), 'utf8');
    const next = withClientTypes(code);
    if (next === undefined) continue;
    typed = true;
    edit(file, () => next, `types with ${clientTypes}`);
  }
  if (!typed) move.left.push(`tsconfig.json: add "${clientTypes}" to compilerOptions.types, the build's modules' declarations`);
}
