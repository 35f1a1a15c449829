import type { WorkflowDefinition, WorkflowServerModule } from './workflow-definition.ts';

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
    if (byId.has(definition.id)) throw new Error(`two workflows have the id "${definition.id}"`);
    const server = options.serverModules?.[definition.id];
    byId.set(definition.id, server === undefined ? { definition } : { definition, server });
  }
  const [first] = definitions;
  if (first === undefined) throw new Error('a workflow catalog needs at least one workflow');
  const defaultId = options.defaultWorkflow ?? first.id;
  if (!byId.has(defaultId)) throw new Error(`the default workflow "${defaultId}" is not in the list`);
  for (const id of Object.keys(options.serverModules ?? {})) {
    if (!byId.has(id)) throw new Error(`a server module is given for "${id}", which is not in the list of workflows`);
  }
  const listed = Object.freeze([...definitions]);
  return {
    defaultId,
    list: () => listed,
    find: (id) => byId.get(id),
  };
}
