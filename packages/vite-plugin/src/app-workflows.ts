import { join } from 'node:path';
import { normalizePath, type Plugin, type ViteDevServer } from 'vite';
import type { WorkflowDefinition } from '@partner-task-kit/workflow';
import { engineModule, folderScreensModule } from './engine-modules.ts';
import { pageModuleLoader, type LoadPageModule } from './page-loader.ts';
import {
  SCREENS_TABLE,
  screensTableSource,
  workflowOfScreensModule,
  workflowScreensModule,
  workflowScreensSource,
} from './screens-modules.ts';
import {
  loadWorkflowFolders,
  scanWorkflowFolders,
  WORKFLOWS_DIRECTORY,
  WorkflowFolderError,
  type WorkflowFolder,
} from './workflow-folders.ts';

/** The app's workflows as this build found them in their folders, once it has started (buildStart). */
export interface AppWorkflows {
  plugin: Plugin;
  root(): string;
  /** The folders, in the order of their ids. */
  folders(): readonly WorkflowFolder[];
  /** Each folder's definition, checked against its folder, in the same order. */
  definitions(): readonly WorkflowDefinition[];
  /** The loader the definitions came through, which the prerender loads the page's modules with too. */
  load(): LoadPageModule;
}

/**
 * The app's workflows found by their folders (docs/architecture.md#a-workflow-is-a-folder): checked when the build or
 * the dev server starts, each definition loaded through tsx, a broken convention stopping it with the files to change;
 * and served to the page as `virtual:partner-task-kit/screens`, the table of every workflow's module of screens, and
 * one such module per workflow. The dev server watches src/workflows/: a folder or a screen added or removed changes the
 * modules, and the page reloads.
 */
export function appWorkflows(tsconfig: string | undefined): AppWorkflows {
  let root = process.cwd();
  let folders: readonly WorkflowFolder[] = [];
  let definitions: readonly WorkflowDefinition[] = [];
  let locales: readonly string[] | undefined;
  let load: LoadPageModule | undefined;
  const firstStepOf = (workflowId: string) => definitions.find((definition) => definition.id === workflowId)?.steps[0]?.id;
  const plugin: Plugin = {
    name: 'partner-task-kit:workflow-folders',
    configResolved(config) {
      root = config.root;
    },
    async buildStart() {
      load = pageModuleLoader(root, tsconfig);
      ({ locales } = (await load(engineModule('ui/i18n/locale', 'ts'))) as { locales: readonly string[] });
      try {
        const loaded = await loadWorkflowFolders(root, locales, load);
        folders = loaded.folders;
        // Checked by loadWorkflowFolders: an id that is its folder's name and steps that are its screens'.
        definitions = folders.map((folder) => loaded.definitions.get(folder.id) as WorkflowDefinition);
      } catch (error) {
        if (error instanceof WorkflowFolderError) this.error(error.message);
        throw error;
      }
    },
    resolveId(id) {
      return id === SCREENS_TABLE || workflowOfScreensModule(id) !== undefined ? id : null;
    },
    load(id) {
      if (id === SCREENS_TABLE) return screensTableSource(folders);
      const workflowId = workflowOfScreensModule(id);
      if (workflowId === undefined) return null;
      const folder = folders.find((each) => each.id === workflowId);
      if (folder === undefined) this.error(`${id}: ${WORKFLOWS_DIRECTORY}/ has no workflow "${workflowId}"`);
      return workflowScreensSource(folder, folderScreensModule, firstStepOf(folder.id));
    },
    configureServer(server) {
      watchFolders(
        server,
        root,
        (found) => {
          const stale = changedModules(folders, found, firstStepOf);
          folders = found;
          return stale;
        },
        () => locales,
      );
    },
  };
  return {
    plugin,
    root: () => root,
    folders: () => folders,
    definitions: () => definitions,
    load: () => {
      if (load === undefined) throw new Error("the app's workflows are loaded when the build starts");
      return load;
    },
  };
}

type FirstStepOf = (workflowId: string) => string | undefined;

/** The modules served for these folders, by id. */
function moduleSources(folders: readonly WorkflowFolder[], firstStepOf: FirstStepOf): Map<string, string> {
  return new Map([
    [SCREENS_TABLE, screensTableSource(folders)],
    ...folders.map(
      (folder) => [workflowScreensModule(folder.id), workflowScreensSource(folder, folderScreensModule, firstStepOf(folder.id))] as const,
    ),
  ]);
}

/** The modules whose source differs between the two scans. */
function changedModules(before: readonly WorkflowFolder[], after: readonly WorkflowFolder[], firstStepOf: FirstStepOf): string[] {
  const was = moduleSources(before, firstStepOf);
  const is = moduleSources(after, firstStepOf);
  return [...new Set([...was.keys(), ...is.keys()])].filter((id) => was.get(id) !== is.get(id));
}

/**
 * The dev server's watch of src/workflows/: a file or folder added or removed there is scanned again, and the modules
 * that changed are invalidated and the page reloaded. A scan that finds the convention broken (a folder still without
 * its definition.ts) is logged, and the modules stay as they were until it is whole again. A definition's own changes
 * (a step added) are checked by the next build and by `partner-task-kit check`: here the page shows the runner's
 * "no screen for this step" until the screen's file is there.
 */
function watchFolders(
  server: ViteDevServer,
  root: string,
  rescanned: (found: readonly WorkflowFolder[]) => string[],
  locales: () => readonly string[] | undefined,
): void {
  const directory = `${normalizePath(join(root, WORKFLOWS_DIRECTORY))}/`;
  server.watcher.add(directory);
  const rescan = (file: string) => {
    const languages = locales();
    if (languages === undefined || !normalizePath(file).startsWith(directory)) return;
    let found: WorkflowFolder[];
    try {
      found = scanWorkflowFolders(root, languages);
    } catch (error) {
      if (!(error instanceof WorkflowFolderError)) throw error;
      server.config.logger.error(error.message);
      return;
    }
    const stale = rescanned(found);
    if (stale.length === 0) return;
    for (const environment of Object.values(server.environments)) {
      for (const id of stale) {
        const module = environment.moduleGraph.getModuleById(id);
        if (module) environment.moduleGraph.invalidateModule(module);
      }
    }
    server.ws.send({ type: 'full-reload' });
  };
  for (const event of ['add', 'unlink', 'addDir', 'unlinkDir'] as const) server.watcher.on(event, rescan);
}
