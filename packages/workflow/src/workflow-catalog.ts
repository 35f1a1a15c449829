import type { WorkflowDefinition, WorkflowServerModule } from './workflow-definition.ts';

/** A mistake in the workflows an app hands the engine, which stops the server before it serves. */
export class WorkflowCatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkflowCatalogError';
  }
}

/** A workflow as the server runs it: its definition, and on the server its half that keeps secrets (graders). */
interface RegisteredWorkflow {
  definition: WorkflowDefinition;
  /** Absent for a workflow that grades nothing, and always on the page: answer keys never reach the browser. */
  server?: WorkflowServerModule;
}

/**
 * The workflows one deployment runs, handed to the engine by the app that owns them (docs/architecture.md#dependencies-passed-in):
 * the engine names no workflow of its own, so an app may register its own and delete every example.
 */
export interface WorkflowCatalog {
  /** The workflow of a new task whose link names none (docs/platform.md#partner-task-configuration). */
  readonly defaultId: string;
  /** Every workflow, in the order the preview portal offers them. */
  list(): readonly WorkflowDefinition[];
  /** Looked up by the id a task has stored, which is a plain string. */
  find(id: string): RegisteredWorkflow | undefined;
}

export interface WorkflowCatalogOptions {
  /** The id of the default workflow; the first of the list when absent. */
  defaultWorkflow?: string;
  /** The server halves by workflow id; a workflow that grades nothing needs none. Server only. */
  serverModules?: Readonly<Record<string, WorkflowServerModule | undefined>>;
}

/**
 * Checks the list once, at start, so a mistake (two workflows under one id, a default or a server half naming no
 * workflow) stops the server or the build with its cause instead of surfacing in a worker's task.
 */
export function workflowCatalog(definitions: readonly WorkflowDefinition[], options: WorkflowCatalogOptions = {}): WorkflowCatalog {
  const byId = new Map<string, RegisteredWorkflow>();
  for (const definition of definitions) {
    if (byId.has(definition.id)) throw new WorkflowCatalogError(`two workflows have the id "${definition.id}"`);
    const server = options.serverModules?.[definition.id];
    byId.set(definition.id, server === undefined ? { definition } : { definition, server });
  }
  const [first] = definitions;
  if (first === undefined) throw new WorkflowCatalogError('a workflow catalog needs at least one workflow');
  const defaultId = options.defaultWorkflow ?? first.id;
  if (!byId.has(defaultId)) throw new WorkflowCatalogError(`the default workflow "${defaultId}" is not in the list`);
  for (const id of Object.keys(options.serverModules ?? {})) {
    if (!byId.has(id)) throw new WorkflowCatalogError(`a server module is given for "${id}", which is not in the list of workflows`);
  }
  const listed = Object.freeze([...definitions]);
  return {
    defaultId,
    list: () => listed,
    find: (id) => byId.get(id),
  };
}

/**
 * A workflow as the app's folders give it (docs/architecture.md#a-workflow-is-a-folder): the default exports of its
 * definition.ts and definition.server.ts. The app's server entry receives the list from the module the kit writes,
 * `virtual:partner-task-kit/workflows`.
 */
export interface FolderWorkflow {
  /** The default export of its definition.ts. */
  definition: WorkflowDefinition;
  /** The default export of its definition.server.ts; absent for a workflow without one. */
  server?: WorkflowServerModule | undefined;
  /** The workflow's folder from the app's root, `src/workflows/<id>/`: its name is the workflow's id. */
  folder: string;
}

/**
 * The catalog of the workflows found in the app's folders, checked as the folders promise: each definition's id is its
 * folder's name, each server half a module of the same workflow. The default workflow is `defaultWorkflow`, which an
 * app with several workflows names in its server entry; an app with one needs none.
 */
export function folderCatalog(workflows: readonly FolderWorkflow[], defaultWorkflow: string | undefined): WorkflowCatalog {
  if (workflows.length === 0)
    throw new WorkflowCatalogError('src/workflows/ has no workflow: each workflow is a folder in it (npm run new-workflow makes one)');
  for (const { definition, folder, server } of workflows) {
    const name = folderName(folder);
    if (!isDefinition(definition))
      throw new WorkflowCatalogError(
        `${folder}definition.ts: its default export is no workflow definition (an object with an id and steps)`,
      );
    if (definition.id !== name)
      throw new WorkflowCatalogError(
        `${folder}definition.ts: id ${JSON.stringify(definition.id)} is not its folder's name, "${name}": a workflow's folder is named by its id`,
      );
    if (server !== undefined && (typeof server !== 'object' || server === null))
      throw new WorkflowCatalogError(`${folder}definition.server.ts: its default export is no server module (an object)`);
  }
  const ids = workflows.map(({ definition }) => definition.id);
  if (defaultWorkflow === undefined && workflows.length > 1)
    throw new WorkflowCatalogError(
      `the app has ${workflows.length} workflows (${ids.join(', ')}) and names no default, the one a link naming none runs: ` +
        `name it in server/main.ts, runKit(argv, { workflows, defaultWorkflow: '${ids[0]}' })`,
    );
  if (defaultWorkflow !== undefined && !ids.includes(defaultWorkflow))
    throw new WorkflowCatalogError(
      `the default workflow "${defaultWorkflow}" (server/main.ts, runKit's defaultWorkflow) is no folder of src/workflows/: its workflows are ${ids.join(', ')}`,
    );
  const serverModules = Object.fromEntries(workflows.map(({ definition, server }) => [definition.id, server]));
  return workflowCatalog(
    workflows.map(({ definition }) => definition),
    { defaultWorkflow: defaultWorkflow ?? ids[0], serverModules },
  );
}

/** The last segment of a folder path, with or without its trailing slash. */
function folderName(folder: string): string {
  return (
    folder
      .split(/[\\/]/)
      .filter((segment) => segment !== '')
      .at(-1) ?? folder
  );
}

function isDefinition(value: unknown): value is WorkflowDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const { id, steps } = value as { id?: unknown; steps?: unknown };
  return typeof id === 'string' && Array.isArray(steps);
}
