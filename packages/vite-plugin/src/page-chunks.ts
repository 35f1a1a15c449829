import type { Plugin } from 'vite';
import { chunksWithImports, holds, moduleId } from './bundle-chunks.ts';
import { appModule, engineModule, folderScreensModule } from './engine-modules.ts';

const formWiring = [engineModule('ui/field-wiring', 'ts'), engineModule('workflows/field-errors', 'ts')];
import { preloadedModules } from './first-screen-chunks.ts';
import { workflowOfScreensModule } from './screens-modules.ts';

/**
 * Build options the page depends on, given to Vite before it resolves its configuration. Not the output directory nor
 * source maps: the app's configuration and the tests (packages/kit-tests/helpers/page-build.ts) choose those.
 */
export function pageBuildOptions(): Plugin {
  // The entry's chunks and the app chunk's, by file, once the bundle is known (generateBundle, before Vite's own
  // hook writes the preload lists with resolveDependencies).
  let entry = new Set<string>();
  let app = new Set<string>();
  let workflowModules = new Set<string>();
  return {
    name: 'partner-task-kit:page-build-options',
    apply: 'build',
    config: () => ({
      build: {
        // No data: URLs for scripts and nothing inline: the CSP allows scripts from this origin only.
        assetsInlineLimit: 0,
        modulePreload: {
          // Every browser the portal supports preloads modules itself (Chrome 66, Firefox 115, Safari 17); an older one
          // only loads a little later. The polyfill was 1.6 KB of the entry chunk, run before the session request.
          polyfill: false,
          // A dynamic import()'s list of chunks to preload leaves out those already loaded when it runs: the entry's,
          // and, for any chunk but the entry's, the app chunk's (whatever else loads is imported once the app runs).
          // Each list is a string in the chunk that imports, and the shell and each workflow's module of screens
          // import many: on every link, bytes of its first page's budget (packages/kit-tests/app-checks/page-build.test.ts).
          resolveDependencies: (_file, deps, { hostId }) =>
            workflowModules.has(hostId) ? [] : deps.filter((dep) => !entry.has(dep) && (entry.has(hostId) || !app.has(dep))),
        },
      },
    }),
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        entry = new Set(chunksWithImports(bundle, (chunk) => chunk.isEntry));
        app = new Set(chunksWithImports(bundle, (chunk) => holds(chunk, appModule)));
        workflowModules = new Set(
          Object.values(bundle)
            .filter((chunk) => chunk.type === 'chunk' && workflowOfScreensModule(moduleId(chunk.facadeModuleId)) !== undefined)
            .map((chunk) => chunk.fileName),
        );
      },
    },
  };
}

/**
 * docs/decisions/001-the-server-is-the-authority.md: secrets such as a graded step's answer key never reach the
 * browser. A `.server.ts` module or anything under server/ imported by page code stops the build instead of being
 * bundled.
 */
export function refuseServerModules(): Plugin {
  return {
    name: 'refuse-server-modules',
    enforce: 'pre',
    load(id) {
      const path = id.split('?')[0] ?? id;
      if (/\.server\.tsx?$/.test(path) || /[\\/]server[\\/]/.test(path.replace(process.cwd(), ''))) {
        this.error(`${path} is server-only and must not be imported by the page`);
      }
      return null;
    },
  };
}

/** index.html preloads the app chunk and the table of the workflows' screens (preloadedModules, first-screen-chunks.ts). */
export function preloadTaskPageChunks(): Plugin {
  return {
    name: 'preload-task-page-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const files = chunksWithImports(context.bundle ?? {}, (chunk) => preloadedModules.some((id) => holds(chunk, id)));
        return files
          .filter((fileName) => !html.includes(`/${fileName}"`))
          .map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

/**
 * The shell in one chunk, the app chunk: every module packages/page/src/app-root.tsx runs that the entry (the page's
 * entry, with packages/page/src/task/mount-task-page.ts) has not already loaded. Rolldown would otherwise move a module
 * of the shell that two lazily loaded chunks share (a workflow's screen that reads the task with the API client, which
 * the preview uses too) into a chunk of its own, which the app chunk then imports and so every page preloads: one more
 * file, and the query client split from the shell, more bytes on every link for a screen of one workflow
 * (packages/kit-tests/app-checks/page-build.test.ts holds every link within 1 KB gzip of its size without it). The
 * group's modules are known once the module graph is (buildEnd), before the chunks are made; the group itself is given
 * to Vite with the other build options. It holds what each workflow's module of screens calls too (folderScreens,
 * packages/page/src/workflows/folder-screens.tsx), which the shell is loaded before: in a chunk of its own, every
 * link's first page would fetch one more file.
 */
export function shellChunk(): Plugin {
  const shell = new Set<string>();
  return {
    name: 'shell-chunk',
    apply: 'build',
    config: () => ({
      build: {
        rolldownOptions: {
          // Its modules only: what they import beyond them is the entry's, already loaded before the app chunk.
          output: {
            codeSplitting: { groups: [{ name: 'app-root', test: (id: string) => shell.has(id), includeDependenciesRecursively: false }] },
          },
        },
      },
    }),
    buildEnd() {
      shell.clear();
      const staticClosure = (starts: readonly string[]) => {
        const found = new Set<string>();
        const visit = (id: string) => {
          if (found.has(id)) return;
          found.add(id);
          for (const imported of this.getModuleInfo(id)?.importedIds ?? []) visit(imported);
        };
        for (const start of starts) visit(start);
        return found;
      };
      const ids = [...this.getModuleIds()];
      const app = ids.find((id) => moduleId(id) === appModule);
      // A build of another entry (packages/kit-tests/helpers/page-build.ts input) has no shell.
      if (app === undefined) return;
      const entry = staticClosure(ids.filter((id) => this.getModuleInfo(id)?.isEntry));
      const folderScreens = ids.filter((id) => [folderScreensModule, ...formWiring].includes(moduleId(id)));
      for (const id of staticClosure([app, ...folderScreens])) if (!entry.has(id)) shell.add(id);
    },
  };
}
