import type { Plugin } from 'vite';
import { WorkflowFolderError } from './workflow-folders.ts';
import { appWorkflowsModuleSource, WORKFLOWS_MODULE } from './workflows-module.ts';

/**
 * `virtual:partner-task-kit/workflows` for the app's tests, in its vitest.config.ts (`plugins:
 * [serverWorkflowsModule()]`): a test imports the workflows the server runs as server/main.ts does
 * (docs/architecture.md#how-the-server-finds-them). Not for the page's build: the module holds the server halves, and
 * their answer keys stay out of the browser. The app is Vite's root, where its vitest.config.ts is.
 */
export function serverWorkflowsModule(): Plugin {
  const id = `\0${WORKFLOWS_MODULE}`;
  let root = process.cwd();
  return {
    name: 'partner-task-kit:server-workflows',
    configResolved(config) {
      root = config.root;
    },
    resolveId(source) {
      return source === WORKFLOWS_MODULE ? id : null;
    },
    load(loading) {
      if (loading !== id) return null;
      try {
        return appWorkflowsModuleSource(root);
      } catch (error) {
        if (error instanceof WorkflowFolderError) this.error(error.message);
        throw error;
      }
    },
  };
}
