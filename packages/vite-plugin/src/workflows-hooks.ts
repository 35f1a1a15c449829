import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LoadHook, ResolveHook } from 'node:module';
import { WORKFLOWS_DIRECTORY, WorkflowFolderError } from './workflow-folders.ts';
import { appRootOf, appWorkflowsModuleSource, WORKFLOWS_MODULE } from './workflows-module.ts';

/**
 * Node's module hooks for `virtual:partner-task-kit/workflows` (register.ts registers them): the module is written from
 * the folders of the app the importing file belongs to, at every start, so a folder added is a workflow served with no
 * other edit (docs/architecture.md#how-the-server-finds-them).
 *
 * Its URL is a file the app does not have, in its src/workflows/: the app's root can be read back from it, and Node and
 * tsx take the module for one of the app's own.
 */
const MODULE_FILE = '.partner-task-kit-workflows.mjs';

export const resolve: ResolveHook = (specifier, context, nextResolve) => {
  if (specifier !== WORKFLOWS_MODULE) return nextResolve(specifier, context);
  const importer = context.parentURL?.startsWith('file:') ? fileURLToPath(context.parentURL) : undefined;
  const root = importer === undefined ? undefined : appRootOf(importer);
  if (root === undefined)
    throw new Error(
      `${WORKFLOWS_MODULE} is the workflows of an app: imported by ${context.parentURL ?? 'no file'}, which is in no folder with a package.json`,
    );
  return { url: pathToFileURL(join(root, WORKFLOWS_DIRECTORY, MODULE_FILE)).href, format: 'module', shortCircuit: true };
};

export const load: LoadHook = (url, context, nextLoad) => {
  if (!url.startsWith('file:') || !url.endsWith(`/${MODULE_FILE}`)) return nextLoad(url, context);
  const root = dirname(dirname(dirname(fileURLToPath(url))));
  let source: string;
  try {
    source = appWorkflowsModuleSource(root, (file) => pathToFileURL(file).href);
  } catch (error) {
    if (!(error instanceof WorkflowFolderError)) throw error;
    // The message alone, naming the files to change, as the other checks of the server's start print theirs: a stack
    // trace through the loader would bury it. Run before the entry's own code, which imports it; the export only links.
    const message = JSON.stringify(`Stopped before starting: ${error.message}\n`);
    source = `process.stderr.write(${message});\nprocess.exit(1);\nexport default [];\n`;
  }
  return { format: 'module', source, shortCircuit: true };
};
