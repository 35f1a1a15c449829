import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { scanWorkflowFolders, WORKFLOWS_DIRECTORY, type WorkflowFolder } from './workflow-folders.ts';

/**
 * The module the app's server entry imports its workflows from (server/main.ts:
 * `import workflows from 'virtual:partner-task-kit/workflows'`), written from the folders
 * (docs/architecture.md#how-the-server-finds-them). One generator for every way the server runs: the Node hooks of the
 * app's commands (register.ts), its production bundle (cli/build-server.ts) and Vite (workflows-plugin.ts).
 */
export const WORKFLOWS_MODULE = 'virtual:partner-task-kit/workflows';

/**
 * The module's source for these folders: each definition's default export with its server half's, if it has one, and
 * the folder from the app's root, in the folders' order (their ids'). `importOf` turns a file's absolute path into the
 * specifier the module imports it by: the path itself for a bundler, a file: URL for Node's loader (which reads a
 * Windows path's drive as a URL scheme).
 */
function workflowsModuleSource(
  root: string,
  folders: readonly WorkflowFolder[],
  importOf: (file: string) => string = (file) => file,
): string {
  const imports: string[] = [];
  const entries: string[] = [];
  folders.forEach((folder, index) => {
    imports.push(`import definition${index} from ${JSON.stringify(importOf(folder.definition))};`);
    const fields = [`definition: definition${index}`];
    if (folder.server !== undefined) {
      imports.push(`import server${index} from ${JSON.stringify(importOf(folder.server))};`);
      fields.push(`server: server${index}`);
    }
    fields.push(`folder: ${JSON.stringify(`${relative(root, folder.folder).replaceAll('\\', '/')}/`)}`);
    entries.push(`  { ${fields.join(', ')} },`);
  });
  return [
    `// ${WORKFLOWS_MODULE}: the app's workflows, each a folder of ${WORKFLOWS_DIRECTORY}/, written by @partner-task-kit/vite-plugin.`,
    ...imports,
    'export default [',
    ...entries,
    '];',
    '',
  ].join('\n');
}

/**
 * The module's source for the app `root`: its folders scanned for what the server needs (a definition each, and its
 * server half), not its texts, which are the page's. Throws WorkflowFolderError naming the files to change.
 */
export function appWorkflowsModuleSource(root: string, importOf?: (file: string) => string): string {
  return workflowsModuleSource(root, scanWorkflowFolders(root, undefined), importOf);
}

/** The app a file belongs to: the nearest folder above it with a package.json. */
export function appRootOf(file: string): string | undefined {
  let folder = dirname(file);
  for (;;) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}
