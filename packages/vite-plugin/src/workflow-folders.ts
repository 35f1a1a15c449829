import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

/**
 * The app's workflows, found by their folders (docs/architecture.md#a-workflow-is-a-folder): each folder under
 * `src/workflows/` is one workflow, named by its id, and each of its files has its role by its name. Nothing lists
 * them: the page's build, the server and the kit's commands read the same folders through this module.
 *
 *   src/workflows/<id>/definition.ts          default export: the definition (its `id` is the folder's name)
 *   src/workflows/<id>/definition.server.ts   default export: the server half (graders, answer keys); optional
 *   src/workflows/<id>/steps/<step-id>.tsx    default export: the screen of that step, one per step
 *   src/workflows/<id>/texts.<locale>.ts      default export: the texts in that language; none, or one per locale
 *   src/workflows/<id>/done.tsx, failed.tsx   default export: the workflow's own end screens; optional
 *
 * Any other file is the workflow's own, imported by these. A folder whose name starts with `_` or `.` holds no
 * workflow (code the workflows share).
 */
export const WORKFLOWS_DIRECTORY = 'src/workflows';

export interface WorkflowFolder {
  /** The folder's name, which is the workflow's id. */
  id: string;
  /** The folder, absolute, forward slashes, with a trailing slash. */
  folder: string;
  definition: string;
  server: string | undefined;
  /** Each screen file under steps/ by the step id its name gives. */
  steps: ReadonlyMap<string, string>;
  /** Each texts file by its locale. */
  texts: ReadonlyMap<string, string>;
  done: string | undefined;
  failed: string | undefined;
}

/** A folder that breaks the convention; the message names the file to change, from the app's root. */
export class WorkflowFolderError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `the app's workflows (${WORKFLOWS_DIRECTORY}/) do not follow the folder convention:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
    this.name = 'WorkflowFolderError';
  }
}

/**
 * A path with forward slashes, as Vite's normalizePath gives it: written out here because the server's commands scan
 * the folders too (workflows-module.ts), and they should not load Vite for it.
 */
function normalizePath(path: string): string {
  return posix.normalize(sep === '\\' ? path.replaceAll('\\', '/') : path);
}

/** What the screens of a step may be written in: the folder's TypeScript, or JavaScript in an app without it. */
const screenExtensions = ['.tsx', '.ts', '.jsx', '.js'] as const;
const moduleExtensions = ['.ts', '.js'] as const;

/** Lowercase words joined by hyphens: the id is in URLs, file names and the database (docs/platform.md#partner-task-configuration). */
const workflowIdPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function withExtension(base: string, extensions: readonly string[]): string | undefined {
  for (const extension of extensions) if (existsSync(`${base}${extension}`)) return `${base}${extension}`;
  return undefined;
}

function stripExtension(name: string, extensions: readonly string[]): string | undefined {
  const extension = extensions.find((each) => name.endsWith(each) && !name.endsWith(`.d${each}`));
  return extension === undefined ? undefined : name.slice(0, -extension.length);
}

/**
 * The workflow folders under `root`'s `src/workflows/`, in the order of their ids (the preview portal offers them so),
 * checked for what their files alone tell: a definition, a name that is an id, screens and texts named as the
 * convention names them. What needs the definition loaded (its id, its steps) is checkWorkflowDefinitions'. The texts
 * are checked against `locales`, the languages the page speaks; undefined, not at all (the server, which has no texts).
 */
export function scanWorkflowFolders(root: string, locales: readonly string[] | undefined): WorkflowFolder[] {
  const directory = join(root, WORKFLOWS_DIRECTORY);
  const shown = (file: string) => normalizePath(relative(root, file));
  if (!existsSync(directory)) throw new WorkflowFolderError([`${WORKFLOWS_DIRECTORY}/ does not exist: each workflow is a folder in it`]);
  const problems: string[] = [];
  const folders: WorkflowFolder[] = [];
  const names = readdirSync(directory)
    .filter((name) => !name.startsWith('_') && !name.startsWith('.') && statSync(join(directory, name)).isDirectory())
    .sort();
  for (const id of names) {
    const folder = join(directory, id);
    if (!workflowIdPattern.test(id)) {
      problems.push(`${shown(folder)}/: a workflow's folder is named by its id, lowercase words joined by hyphens`);
      continue;
    }
    const definition = withExtension(join(folder, 'definition'), moduleExtensions);
    if (definition === undefined) {
      problems.push(`${shown(folder)}/: no definition.ts (a folder of shared code is named with a leading _)`);
      continue;
    }
    const steps = new Map<string, string>();
    const stepsDirectory = join(folder, 'steps');
    if (existsSync(stepsDirectory)) {
      for (const name of readdirSync(stepsDirectory).sort()) {
        const stepId = stripExtension(name, screenExtensions);
        if (stepId === undefined) continue;
        const file = join(stepsDirectory, name);
        if (steps.has(stepId)) problems.push(`${shown(file)}: a second screen of step "${stepId}" (${shown(steps.get(stepId)!)})`);
        else steps.set(stepId, normalizePath(file));
      }
    }
    const texts = new Map<string, string>();
    for (const name of readdirSync(folder).sort()) {
      const match = /^texts\.([a-z]{2,3}(?:-[a-z0-9]+)?)\.(?:ts|js)$/i.exec(name);
      if (!match) continue;
      const locale = match[1]!;
      if (locales !== undefined && !locales.includes(locale))
        problems.push(`${shown(join(folder, name))}: the page speaks ${locales.join(', ')}, not ${locale}`);
      else texts.set(locale, normalizePath(join(folder, name)));
    }
    if (texts.size > 0 && locales !== undefined) {
      for (const locale of locales)
        if (!texts.has(locale))
          problems.push(`${shown(folder)}/texts.${locale}.ts is missing: a workflow with texts has them in every language the page speaks`);
    }
    const endScreen = (name: string) => {
      const file = withExtension(join(folder, name), screenExtensions);
      return file === undefined ? undefined : normalizePath(file);
    };
    const server = withExtension(join(folder, 'definition.server'), moduleExtensions);
    folders.push({
      id,
      folder: `${normalizePath(folder)}/`,
      definition: normalizePath(definition),
      server: server === undefined ? undefined : normalizePath(server),
      steps,
      texts,
      done: endScreen('done'),
      failed: endScreen('failed'),
    });
  }
  if (names.length === 0)
    problems.push(`${WORKFLOWS_DIRECTORY}/ has no workflow: each workflow is a folder in it (npm run new-workflow makes one)`);
  if (problems.length > 0) throw new WorkflowFolderError(problems);
  return folders;
}

/**
 * What checkWorkflowDefinitions reads of a definition: its id and its steps' ids.
 * @public
 */
export interface DefinitionShape {
  id: unknown;
  steps: readonly { id: string }[];
}

/**
 * The folders against their definitions, once loaded: each definition's id is its folder's name and no other's, each
 * step has its screen and each screen its step. The problems name the file to change; none: an empty list. For a
 * caller that loads the definitions its own way (the server at its start).
 * @public
 */
export function checkWorkflowDefinitions(
  root: string,
  folders: readonly WorkflowFolder[],
  definitionOf: (folder: WorkflowFolder) => unknown,
): string[] {
  const shown = (file: string) => normalizePath(relative(root, file));
  const problems: string[] = [];
  const byId = new Map(folders.map((folder) => [folder.id, folder]));
  for (const folder of folders) {
    const definition = definitionOf(folder);
    if (!isDefinitionShape(definition)) {
      problems.push(`${shown(folder.definition)}: its default export is no workflow definition (an object with an id and steps)`);
      continue;
    }
    if (definition.id !== folder.id) {
      const owner = typeof definition.id === 'string' ? byId.get(definition.id) : undefined;
      problems.push(
        owner === undefined
          ? `${shown(folder.definition)}: id ${JSON.stringify(definition.id)} is not its folder's name, "${folder.id}": a workflow's folder is named by its id`
          : `${shown(folder.definition)}: id "${owner.id}" is already the id of ${shown(owner.definition)}: give this workflow the id "${folder.id}", its folder's name`,
      );
    }
    const stepIds = new Set(definition.steps.map((step) => step.id));
    for (const stepId of stepIds) {
      if (!folder.steps.has(stepId))
        problems.push(`${shown(folder.definition)}: step "${stepId}" has no screen: add ${shown(folder.folder)}/steps/${stepId}.tsx`);
    }
    for (const [stepId, file] of folder.steps) {
      if (!stepIds.has(stepId)) problems.push(`${shown(file)}: ${shown(folder.definition)} has no step "${stepId}"`);
    }
  }
  return problems;
}

function isDefinitionShape(value: unknown): value is DefinitionShape {
  if (typeof value !== 'object' || value === null) return false;
  const { steps } = value as { steps?: unknown };
  return (
    'id' in value &&
    Array.isArray(steps) &&
    steps.every((step: unknown) => typeof step === 'object' && step !== null && typeof (step as { id?: unknown }).id === 'string')
  );
}

/** The app's workflows with their definitions loaded and checked against their folders. */
export interface LoadedWorkflowFolders {
  folders: readonly WorkflowFolder[];
  /** Each folder's definition (its default export), by id. */
  definitions: ReadonlyMap<string, unknown>;
}

/**
 * The app's workflow folders, each definition loaded by `load` (the kit's commands and the page's build load them
 * through tsx) and checked: throws WorkflowFolderError naming every file to change. The server halves are not loaded:
 * the build needs none of them, and the server imports them itself.
 */
export async function loadWorkflowFolders(
  root: string,
  locales: readonly string[],
  load: (file: string) => Promise<unknown>,
): Promise<LoadedWorkflowFolders> {
  const folders = scanWorkflowFolders(root, locales);
  const definitions = new Map<string, unknown>();
  for (const folder of folders) {
    const module = (await load(folder.definition)) as { default?: unknown };
    definitions.set(folder.id, module.default);
  }
  const problems = checkWorkflowDefinitions(root, folders, (folder) => definitions.get(folder.id));
  if (problems.length > 0) throw new WorkflowFolderError(problems);
  return { folders, definitions };
}
