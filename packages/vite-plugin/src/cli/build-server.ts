import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { WorkflowFolderError } from '../workflow-folders.ts';
import { appRootOf, appWorkflowsModuleSource, WORKFLOWS_MODULE } from '../workflows-module.ts';

/**
 * `partner-task-kit build-server`, run in the app's folder by `npm run build`: the app's server entry (server/main.ts)
 * bundled into build/server/main.mjs, which `npm run serve` and the container run (docs/deploying.md). The app's own
 * modules and its workflows are inside it, each workflow found by its folder as the commands find it
 * (docs/architecture.md#how-the-server-finds-them); the packages stay in node_modules, as the image installs them.
 */
export async function buildServer(args: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...args],
    options: { entry: { type: 'string', default: 'server/main.ts' }, outfile: { type: 'string', default: 'build/server/main.mjs' } },
  });
  const root = process.cwd();
  try {
    await build({
      absWorkingDir: root,
      entryPoints: [join(root, values.entry)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      sourcemap: true,
      outfile: join(root, values.outfile),
      logLevel: 'warning',
      plugins: [workflowsModulePlugin(root)],
    });
  } catch (error) {
    // esbuild has printed its errors (logLevel), each with its file and line: a stack trace would add nothing.
    if (isBuildFailure(error)) {
      process.exitCode = 1;
      return;
    }
    throw error;
  }
}

/** `virtual:partner-task-kit/workflows`, written from the folders of the app the importing file belongs to. */
export function workflowsModulePlugin(fallbackRoot: string): Plugin {
  const namespace = 'partner-task-kit-workflows';
  return {
    name: 'partner-task-kit-workflows',
    setup(builder) {
      const filter = new RegExp(`^${WORKFLOWS_MODULE.replaceAll('/', '\\/')}$`);
      builder.onResolve({ filter }, ({ importer }) => ({ path: appRootOf(importer) ?? fallbackRoot, namespace }));
      builder.onLoad({ filter: /.*/, namespace }, ({ path: root }) => {
        try {
          return { contents: appWorkflowsModuleSource(root), resolveDir: root, loader: 'js' };
        } catch (error) {
          if (error instanceof WorkflowFolderError) return { errors: [{ text: error.message }] };
          throw error;
        }
      });
    },
  };
}

function isBuildFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && Array.isArray((error as { errors?: unknown }).errors);
}
