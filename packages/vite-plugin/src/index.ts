import { randomUUID } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire, register as registerModuleHooks } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { register } from 'tsx/esm/api';
import { normalizePath, type Plugin, type PluginOption, type Rolldown } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { entryImports } from './entry-imports.ts';
import type { ShellTextOverrides, WorkflowScreensTable } from '@partner-task-kit/page';
import type { FirstScreenPrerender } from '@partner-task-kit/page/internal';
import { workflowCatalog, type WorkflowDefinition } from '@partner-task-kit/workflow';
import { kitVersionCheck } from './kit-versions-plugin.ts';
import { previewModule } from './preview-module.ts';

/** Where the app keeps its workflows, each path from the project's root (docs/architecture.md#the-page-build). */
export interface PartnerTaskKitOptions {
  /**
   * The app's workflow registry: it exports `listWorkflows()` and `DEFAULT_WORKFLOW_ID`, as the server takes them, and
   * `prerenderedWorkflows`, the ids of those whose first step the build renders into the HTML.
   */
  workflows: string;
  /**
   * The app's table of its workflows' screens, which its entry (src/main.tsx) hands the page by a dynamic import(): it
   * exports `screenLoaders` (packages/page/src/workflows/workflow-views.tsx, WorkflowScreensTable). Each workflow's files are in a
   * folder beside it named by the workflow's id, its texts in `<id>/texts.<locale>.ts`.
   */
  views: string;
  /**
   * The tsconfig the build's prerender compiles the app's page modules with (its JSX setting, its paths): by default
   * tsconfig.page.json at the root where there is one, else tsconfig.json.
   */
  tsconfig?: string;
  /**
   * The app's module of its own versions of some of the shell's texts, which its entry (src/main.tsx) hands the page:
   * it exports `shellTexts` (ShellTextOverrides). The build renders the prerendered first screens, and their <title>,
   * with them too, so they say what the page that hydrates them says. Absent: the app keeps the kit's texts.
   */
  shellTexts?: string;
}

/**
 * The engine's build of the task page, told where the app's workflows are: the check of the kit's versions, React, the
 * rule that keeps server modules out of the page, the preview portal where the dev tools are installed, the shell in
 * one chunk, the preloads, the prerendered first screens, the compressed copies and the compile hints, each below with
 * its reason. The build options the page needs come with it (pageBuildOptions).
 */
export function partnerTaskKit(options: PartnerTaskKitOptions): PluginOption[] {
  const page = pagePaths(options);
  return [
    kitVersionCheck(),
    react(),
    entryImports(),
    page.plugin,
    previewModule(),
    pageBuildOptions(),
    shellChunk(),
    refuseServerModules(),
    preloadTaskPageChunks(page),
    prerenderFirstScreens(page, options),
    compressPage(),
    compileHintsForFirstScreens(page),
  ];
}

/**
 * The page package's modules the build singles out, by their path: its sources where the app resolves the package to
 * them (this repository, through tsconfig paths), its compiled dist/ where the app installed it from npm.
 */
const pagePackage = realpathSync(dirname(createRequire(import.meta.url).resolve('@partner-task-kit/page/package.json')));
const pageSource = existsSync(join(pagePackage, 'src/app-root.tsx'));
const engineSource = normalizePath(join(pagePackage, pageSource ? 'src' : 'dist'));
const moduleFile = (name: string, extension: 'ts' | 'tsx') => `${engineSource}/${name}.${pageSource ? extension : 'js'}`;
/** The shell's chunk: packages/page/src/app-root.tsx, which mount-task-page.ts imports dynamically, and what it runs (shellChunk). */
const appModule = moduleFile('app-root', 'tsx');
/** The shell's texts in each language (packages/page/src/ui/i18n/locale-context.tsx loads them). */
const shellTexts = new RegExp(`^${escapeRegExp(`${engineSource}/ui/i18n/shell-texts.`)}[a-z]+\\.${pageSource ? 'ts' : 'js'}$`);

/** Where the app's modules are in this build, known once its root is (configResolved). */
interface PagePaths {
  plugin: Plugin;
  /** The app's table of every workflow's screens, a chunk of its own. */
  screensTable(): string;
  /** The folder of a workflow's files, with a trailing slash. */
  workflowFolder(workflowId: string): string;
  /** Whether the module is a workflow's texts in one language (workflowTexts in packages/page/src/workflows/lazy-screen.tsx). */
  isWorkflowTexts(id: string): boolean;
  /** The app's module of its versions of the shell's texts, when it has one. */
  shellTexts(): string | undefined;
}

function pagePaths(options: PartnerTaskKitOptions): PagePaths {
  let table = '';
  let texts = /$^/;
  let shellTexts: string | undefined;
  const plugin: Plugin = {
    name: 'partner-task-kit:app-paths',
    apply: 'build',
    configResolved(config) {
      table = realFile(config.root, options.views, 'views');
      realFile(config.root, options.workflows, 'workflows');
      if (options.shellTexts !== undefined) shellTexts = realFile(config.root, options.shellTexts, 'shellTexts');
      texts = new RegExp(`^${escapeRegExp(dirname(table))}/[^/]+/texts\\.[a-z]+\\.ts$`);
    },
  };
  return {
    plugin,
    screensTable: () => table,
    shellTexts: () => shellTexts,
    workflowFolder: (workflowId) => `${dirname(table)}/${workflowId}/`,
    isWorkflowTexts: (id) => texts.test(id),
  };
}

/** The real path of the file an option names, as Rolldown names modules; a path to nothing stops the build. */
function realFile(root: string, path: string, option: keyof PartnerTaskKitOptions): string {
  const file = resolve(root, path);
  try {
    return normalizePath(realpathSync(file));
  } catch {
    throw new Error(`partnerTaskKit({ ${option}: '${path}' }): there is no ${file}`);
  }
}

/**
 * Build options the page depends on, given to Vite before it resolves its configuration. Not the output directory nor
 * source maps: the app's configuration and the tests (packages/kit-tests/helpers/page-build.ts) choose those.
 */
function pageBuildOptions(): Plugin {
  return {
    name: 'partner-task-kit:page-build-options',
    apply: 'build',
    config: () => ({
      build: {
        // No data: URLs for scripts and nothing inline: the CSP allows scripts from this origin only.
        assetsInlineLimit: 0,
        // Every browser the portal supports preloads modules itself (Chrome 66, Firefox 115, Safari 17); an older one
        // only loads a little later. The polyfill was 1.6 KB of the entry chunk, run before the session request.
        modulePreload: { polyfill: false },
      },
    }),
  };
}

/**
 * DESIGN decision 1: secrets such as quiz answers never reach the browser. A `.server.ts` module or anything under
 * server/ imported by page code stops the build instead of being bundled.
 */
function refuseServerModules(): Plugin {
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

/** The module's id as the paths above are written: forward slashes. */
function moduleId(id: string | null | undefined): string {
  return normalizePath(id ?? '');
}

/** Whether the chunk holds the module (a chunk of the shell has no facade module). */
function holds(chunk: Rolldown.OutputChunk, id: string): boolean {
  return chunk.moduleIds.some((each) => moduleId(each) === id);
}

/**
 * index.html preloads the app chunk with its static imports: otherwise the browser would learn of it only when the
 * entry runs, one more round trip on a slow network (packages/kit-tests/bench/page.ts). And the table of the workflows'
 * screens, which a link whose workflow has no prerendered page needs to know which screens to fetch, as the app starts.
 * The workflows' screens are not preloaded here: fetched when the app starts
 * (packages/page/src/workflows/workflow-views.tsx), they still arrive before the session's answer is rendered, and
 * preloading them competed with the app chunk for bandwidth (the LCP packages/kit-tests/bench/page.ts measures was no
 * better with them). A prerendered first page leaves the table out (prerenderFirstScreens).
 */
function preloadedModules(page: PagePaths): string[] {
  return [appModule, page.screensTable()];
}

function preloadTaskPageChunks(page: PagePaths): Plugin {
  return {
    name: 'preload-task-page-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const preloaded = preloadedModules(page);
        const files = chunksWithImports(context.bundle ?? {}, (chunk) => preloaded.some((id) => holds(chunk, id)));
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

/** What the plugin reads of the app's workflow registry (PartnerTaskKitOptions.workflows). */
interface WorkflowRegistry {
  listWorkflows(): readonly WorkflowDefinition[];
  DEFAULT_WORKFLOW_ID: string;
  prerenderedWorkflows: readonly string[];
}

/**
 * The page's stylesheets, which its modules import (file-field.tsx), are Vite's to bundle; in the prerender, which runs
 * the page's modules in Node, each is an empty module. A screen takes its parts from @partner-task-kit/page/screens,
 * which Node loads whole, the file field with its stylesheet too. Once per process: the hook serves every later load.
 */
let stylesheetsHooked = false;
function emptyStylesheetsInNode(): void {
  if (stylesheetsHooked) return;
  stylesheetsHooked = true;
  const hooks = `export async function load(url, context, next) {
    return /\\.css([?#].*)?$/.test(url) ? { format: 'module', source: '', shortCircuit: true } : next(url, context);
  }`;
  registerModuleHooks(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

/**
 * The engine's prerender and the app's two registries, through tsx with the page's tsconfig (its JSX setting): they
 * are page modules, not part of this configuration. One tsx namespace for all, so the screens the table loads share
 * the prerender's React and its contexts (a tsImport each would load each its own copy of every module).
 */
async function loadForPrerender(root: string, options: PartnerTaskKitOptions) {
  const pageTsconfig = join(root, 'tsconfig.page.json');
  const tsconfig = options.tsconfig
    ? resolve(root, options.tsconfig)
    : existsSync(pageTsconfig)
      ? pageTsconfig
      : join(root, 'tsconfig.json');
  emptyStylesheetsInNode();
  const tsx = register({ namespace: `partner-task-kit-prerender-${randomUUID()}`, tsconfig });
  const load = (file: string): Promise<unknown> => tsx.import(pathToFileURL(file).href, import.meta.url);
  const prerender = (await load(moduleFile('task/prerender-first-screen', 'tsx'))) as FirstScreenPrerender;
  const registry = (await load(resolve(root, options.workflows))) as Partial<WorkflowRegistry>;
  const views = (await load(resolve(root, options.views))) as Partial<WorkflowScreensTable>;
  const { listWorkflows, DEFAULT_WORKFLOW_ID, prerenderedWorkflows } = registry;
  if (typeof listWorkflows !== 'function' || typeof DEFAULT_WORKFLOW_ID !== 'string' || !Array.isArray(prerenderedWorkflows))
    throw new Error(
      `${options.workflows} (partnerTaskKit's \`workflows\`) must export listWorkflows(), DEFAULT_WORKFLOW_ID and prerenderedWorkflows`,
    );
  const { screenLoaders } = views;
  if (typeof screenLoaders !== 'object' || screenLoaders === null)
    throw new Error(`${options.views} (partnerTaskKit's \`views\`) must export screenLoaders`);
  const shellTexts =
    options.shellTexts === undefined ? undefined : ((await load(resolve(root, options.shellTexts))) as { shellTexts?: unknown });
  if (shellTexts !== undefined && (typeof shellTexts.shellTexts !== 'object' || shellTexts.shellTexts === null))
    throw new Error(`${options.shellTexts} (partnerTaskKit's \`shellTexts\`) must export shellTexts`);
  return {
    prerender,
    // Checked as the server checks it: one id per workflow, a default that is one of them.
    catalog: workflowCatalog(listWorkflows(), { defaultWorkflow: DEFAULT_WORKFLOW_ID }),
    prerendered: prerenderedWorkflows,
    screens: () => Promise.resolve({ screenLoaders }),
    shellTexts: shellTexts?.shellTexts as ShellTextOverrides | undefined,
  };
}

/**
 * Writes, beside index.html, one page per prerendered workflow and language with its first step already in #root
 * (packages/page/src/task/prerender-first-screen.tsx), which the server sends to a link with a valid context
 * (packages/server/src/page/first-screen-file.ts). The step is painted once the HTML is in, its styles inlined, before any script
 * has run: packages/kit-tests/bench/page.ts measured the first step's paint waiting on the app chunk, the session's answer and the
 * step's chunk, one after the other. Each such page also preloads its workflow's screens and its language's texts of
 * them, which hydrating the step needs, and nothing the first step does not: #root names the file of the screens,
 * which the page imports by that name (packages/page/src/workflows/workflow-views.tsx), so it leaves out the table of every
 * workflow's screens that index.html preloads, and a workflow added weighs nothing on the links of the others.
 * Emitted in generateBundle, so compressPage writes their .br and .gz like index.html's.
 */
function prerenderFirstScreens(page: PagePaths, options: PartnerTaskKitOptions): Plugin {
  let root = process.cwd();
  return {
    name: 'prerender-first-screens',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      // A build of another entry (packages/kit-tests/helpers/page-build.ts input) has no page to prerender into.
      if (html?.type !== 'asset' || typeof html.source !== 'string') return;
      const app = new Set(chunksWithImports(bundle, (chunk) => chunk.isEntry || holds(chunk, appModule)));
      const table = chunksWithImports(bundle, (chunk) => holds(chunk, page.screensTable())).filter((fileName) => !app.has(fileName));
      const template = table.reduce(
        (source, fileName) => source.replace(new RegExp(`<link rel="modulepreload"[^>]*href="/${escapeRegExp(fileName)}"[^>]*>`), ''),
        html.source,
      );
      // Named here but not handed to the page, the texts would be in the prerendered HTML and gone once it hydrates.
      const ownTexts = page.shellTexts();
      const entry = chunksWithImports(bundle, (chunk) => chunk.isEntry).map((fileName) => bundle[fileName]);
      if (ownTexts !== undefined && !entry.some((chunk) => chunk?.type === 'chunk' && holds(chunk, ownTexts)))
        this.error(
          `partnerTaskKit({ shellTexts: '${options.shellTexts}' }): the page's entry does not import it; hand its \`shellTexts\` to mountTaskPage in the app's src/main.tsx`,
        );
      const { prerender, catalog, prerendered, screens, shellTexts } = await loadForPrerender(root, options);
      const screensFile = (workflowId: string) => {
        const [file, ...others] = workflowScreenChunks(bundle, page, workflowId);
        if (file === undefined || others.length > 0)
          this.error(`the screens of ${workflowId} are in ${others.length + (file ? 1 : 0)} chunks, not one`);
        const chunk = bundle[file];
        // Imported by its file name, not through Vite's code, the chunk must keep the name the workflow exports it by.
        if (chunk?.type !== 'chunk' || !chunk.exports.includes('screens')) this.error(`${file} exports no \`screens\``);
        return `/${file}`;
      };
      for (const screen of await prerender.prerenderFirstScreens({ catalog, prerendered, screens, screensFile, shellTexts })) {
        const preloads = [
          ...workflowChunks(bundle, page, screen.workflowId),
          ...textsChunks(bundle, page, screen.workflowId, screen.locale),
        ]
          .filter((fileName) => !template.includes(`/${fileName}"`))
          .map((fileName) => `<link rel="modulepreload" crossorigin href="/${fileName}">`);
        const written = inlineStylesheets(template, bundle)
          .replace(/<html lang="[^"]*"/, `<html lang="${screen.locale}"`)
          .replace(/<title>[^<]*<\/title>/, `<title>${prerender.escapeHtml(screen.documentTitle)}</title>`)
          .replace('</head>', `${preloads.join('')}</head>`)
          .replace('<div id="root"></div>', `${screen.rootTag}${screen.markup}</div>`);
        if (!written.includes(screen.rootTag)) this.error('index.html has no empty <div id="root"></div> to prerender into');
        this.emitFile({ type: 'asset', fileName: screen.fileName, source: written });
      }
    },
  };
}

/**
 * The page's stylesheet, in the HTML: the first step is painted once the HTML and its styles are in, and a stylesheet
 * of its own is one more round trip before that (packages/kit-tests/bench/page.ts, LCP). The server allows
 * exactly these <style> elements by their hash in the CSP (packages/server/src/page/first-screen-file.ts, inlineStyleSources).
 */
function inlineStylesheets(html: string, bundle: Rolldown.OutputBundle): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+)"[^>]*>/g, (link, fileName: string) => {
    const asset = bundle[fileName];
    if (asset?.type !== 'asset') return link;
    const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
    // The link stays, disabled (not fetched, not applied): Vite's loader looks for the page's stylesheet among the
    // <link rel="stylesheet"> elements before a dynamic import that lists it, and would otherwise fetch it then, one
    // round trip before the first step's screens, and so hydration, could go on.
    return `<style>${css}</style>${link.replace('<link ', '<link disabled ')}`;
  });
}

/** The chunk of a workflow's screens: its dynamic import in the app's table of screens. */
function workflowScreenChunks(bundle: Rolldown.OutputBundle, page: PagePaths, workflowId: string): string[] {
  const folder = page.workflowFolder(workflowId);
  const screens = workflowScreenImports(bundle, page);
  return [...screens].filter((fileName) => {
    const chunk = bundle[fileName];
    return chunk?.type === 'chunk' && moduleId(chunk.facadeModuleId).startsWith(folder);
  });
}

/**
 * The chunk of a workflow's screens and the chunks it imports statically. Not the chunks the screens import
 * dynamically themselves (the steps after the first, packages/page/src/workflows/lazy-screen.tsx; their texts, textsChunks): they
 * download once the first step is shown, after what the first screen needs.
 */
function workflowChunks(bundle: Rolldown.OutputBundle, page: PagePaths, workflowId: string): string[] {
  const screens = new Set(workflowScreenChunks(bundle, page, workflowId));
  return chunksWithImports(bundle, (chunk) => screens.has(chunk.fileName));
}

/**
 * The chunk of a workflow's texts in one language (workflowTexts in packages/page/src/workflows/lazy-screen.tsx), which the screens
 * need before they render: the page prerendered in that language preloads it, and no other language's.
 */
function textsChunks(bundle: Rolldown.OutputBundle, page: PagePaths, workflowId: string, locale: string): string[] {
  const file = `${page.workflowFolder(workflowId)}texts.${locale}.ts`;
  return chunksWithImports(bundle, (chunk) => chunk.isDynamicEntry && moduleId(chunk.facadeModuleId) === file);
}

/**
 * The chunks `wanted` picks and every chunk they import statically, followed transitively: a page preloads them all,
 * as otherwise those are found only when the chunk itself has arrived, one more round trip.
 */
function chunksWithImports(bundle: Rolldown.OutputBundle, wanted: (chunk: Rolldown.OutputChunk) => boolean): string[] {
  const files = new Set<string>();
  const add = (fileName: string) => {
    const chunk = bundle[fileName];
    if (files.has(fileName) || chunk?.type !== 'chunk') return;
    files.add(fileName);
    for (const imported of chunk.imports) add(imported);
  };
  for (const item of Object.values(bundle)) {
    if (item.type === 'chunk' && wanted(item)) add(item.fileName);
  }
  return [...files];
}

/** What the chunk holding the app's table of screens imports dynamically: the workflows' screens. */
function workflowScreenImports(bundle: Rolldown.OutputBundle, page: PagePaths): Set<string> {
  const views = Object.values(bundle).find((item) => item.type === 'chunk' && holds(item, page.screensTable()));
  return new Set(views?.type === 'chunk' ? views.dynamicImports : []);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The page's text files compressed once, at build time, at the highest levels (packages/kit-tests/bench/page.ts: on
 * Slow 4G the uncompressed entry chunk's download alone was most of the LCP). The server sends `<file>.br` or
 * `<file>.gz` by Accept-Encoding (@fastify/static preCompressed, packages/server/src/page/page-routes.ts) and the
 * original to a client that offers neither, so the originals stay. Brotli at quality 11 is slow on the entry chunk:
 * affordable once per build, never per request.
 */
const brotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } };
const gzipOptions = { level: 9 };

function compressPage(): Plugin {
  return compression({
    include: /\.(js|css|html|svg)$/,
    algorithms: [defineAlgorithm('brotliCompress', brotliOptions), defineAlgorithm('gzip', gzipOptions)],
    deleteOriginalAssets: false,
  });
}

/**
 * V8's explicit compile hint, `//# allFunctionsCalledOnLoad` on a script's first line (Chrome 136 on; other engines
 * read a comment), on the chunks a first screen runs: their functions are compiled in one pass with the script, which
 * V8 starts on a background thread as the script streams in, instead of one by one on the main thread as hydration
 * first calls them. packages/kit-tests/bench/page.ts, traced (BENCH_PAGE_TRACE, 5 loads each): the main thread's work from the app
 * chunk's arrival to the first step's hydration 186-321 ms without, 70-119 ms with. The hint must come before any
 * code, so it is added once Vite has written the chunk's own first line (its preload map), in the last
 * generateBundle, and that chunk's compressed copies are written again.
 */
function compileHintsForFirstScreens(page: PagePaths): Plugin {
  return {
    name: 'compile-hints-for-first-screens',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const fileName of firstScreenChunks(bundle, page)) {
          const chunk = bundle[fileName];
          if (chunk?.type !== 'chunk') continue;
          chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
          // The code moved down one line: its source map file (with --sourcemap), already in the bundle, gains an empty
          // first line to match.
          const map = bundle[`${fileName}.map`];
          if (map?.type === 'asset') {
            const parsed = JSON.parse(String(map.source)) as { mappings: string };
            map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
          }
          for (const [suffix, compress] of [
            ['.br', (code: string) => brotliCompressSync(code, brotliOptions)],
            ['.gz', (code: string) => gzipSync(code, gzipOptions)],
          ] as const) {
            const copy = bundle[`${fileName}${suffix}`];
            if (copy?.type === 'asset') copy.source = compress(chunk.code);
          }
        }
      },
    },
  };
}

/**
 * What a link's first screen runs: the entry with its static imports, the app chunk, the table of the workflows'
 * screens (index.html), the shell's texts, each workflow's screens and their texts in each language (the first screens
 * preload them, prerenderFirstScreens). Not the preview's chunks, nor the later steps, which load after the first step
 * is shown and call few of their functions at once.
 */
function firstScreenChunks(bundle: Rolldown.OutputBundle, page: PagePaths): string[] {
  const screens = workflowScreenImports(bundle, page);
  const preloaded = preloadedModules(page);
  return chunksWithImports(bundle, (chunk) => {
    const facade = moduleId(chunk.facadeModuleId);
    return (
      chunk.isEntry ||
      preloaded.some((id) => holds(chunk, id)) ||
      screens.has(chunk.fileName) ||
      page.isWorkflowTexts(facade) ||
      shellTexts.test(facade)
    );
  });
}

/**
 * The shell in one chunk, the app chunk: every module packages/page/src/app-root.tsx runs that the entry (the page's
 * entry, with packages/page/src/task/mount-task-page.ts) has not already loaded. Rolldown would otherwise move a module
 * of the shell that two lazily loaded chunks share (a workflow's screen that reads the task with the API client, which
 * the preview uses too) into a chunk of its own, which the app chunk then imports and so every page preloads: one more
 * file, and the query client split from the shell, more bytes on every link for a screen of one workflow
 * (packages/kit-tests/app-checks/page-build.test.ts holds every link within 1 KB gzip of its size without it). The
 * group's modules are known once the module graph is (buildEnd), before the chunks are made; the group itself is given
 * to Vite with the other build options.
 */
function shellChunk(): Plugin {
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
      for (const id of staticClosure([app])) if (!entry.has(id)) shell.add(id);
    },
  };
}

// What an app's vitest.config.ts adds for tests that import the server's workflows.
export { serverWorkflowsModule } from './workflows-plugin.ts';
