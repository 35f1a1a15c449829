import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { tsImport } from 'tsx/esm/api';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import type * as FirstScreenPrerender from './src/task/prerender-first-screen';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/**
 * Where `vite` run alone forwards API and emulator calls: a server on the default PORT. `npm run dev` (scripts/dev.ts)
 * replaces it with the port of the server it starts behind Vite.
 */
const serverUrl = 'http://127.0.0.1:8787';

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

/** The shell's chunk: src/app-root.tsx, imported dynamically by src/main.tsx, and what it runs (shellChunk). */
const appModule = /[\\/]src[\\/]app-root\.tsx$/;
/** The table of every workflow's screens (src/workflows/registry.views.ts), a chunk of its own. */
const screensTableModule = /[\\/]src[\\/]workflows[\\/]registry\.views\.ts$/;

/**
 * index.html preloads the app chunk with its static imports: otherwise the browser would learn of it only when
 * main.tsx runs, one more round trip on a slow network (bench/page.ts). And the table of the workflows' screens, which
 * a link whose workflow has no prerendered page needs to know which screens to fetch, as the app starts. The
 * workflows' screens are not preloaded here: fetched when the app starts (src/workflows/workflow-views.ts), they still
 * arrive before the session's answer is rendered, and preloading them competed with the app chunk for bandwidth
 * (measured LCP 1,436 ms with, 1,408 ms without). A prerendered first page leaves the table out (prerenderFirstScreens).
 */
const preloadedModules = [appModule, screensTableModule];

/** Whether the chunk holds a module whose id `pattern` matches (a chunk of the shell has no facade module). */
function holds(chunk: Rolldown.OutputChunk, pattern: RegExp): boolean {
  return chunk.moduleIds.some((id) => pattern.test(id));
}

function preloadTaskPageChunks(): Plugin {
  return {
    name: 'preload-task-page-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const files = chunksWithImports(context.bundle ?? {}, (chunk) => preloadedModules.some((pattern) => holds(chunk, pattern)));
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
 * Writes, beside index.html, one page per prerendered workflow and language with its first step already in #root
 * (src/task/prerender-first-screen.tsx), which the server sends to a link with a valid context
 * (server/page/first-screen-file.ts). The step is painted once the HTML is in, its styles inlined, before any script
 * has run: bench/page.ts measured the first step's paint waiting on the app chunk, the session's answer and the
 * step's chunk, one after the other. Each such page also preloads its workflow's screens and its language's texts of
 * them, which hydrating the step needs, and nothing the first step does not: #root names the file of the screens,
 * which the page imports by that name (src/workflows/workflow-views.ts), so it leaves out the table of every
 * workflow's screens that index.html preloads, and a workflow added weighs nothing on the links of the others.
 * Emitted in generateBundle, so compressPage writes their .br and .gz like index.html's.
 */
function prerenderFirstScreens(): Plugin {
  let root = process.cwd();
  return {
    name: 'prerender-first-screens',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      const page = bundle['index.html'];
      // A build of another entry (tests/helpers/page-build.ts input) has no page to prerender into.
      if (page?.type !== 'asset' || typeof page.source !== 'string') return;
      const app = new Set(chunksWithImports(bundle, (chunk) => chunk.isEntry || holds(chunk, appModule)));
      const table = chunksWithImports(bundle, (chunk) => holds(chunk, screensTableModule)).filter((fileName) => !app.has(fileName));
      const template = table.reduce(
        (html, fileName) => html.replace(new RegExp(`<link rel="modulepreload"[^>]*href="/${escapeRegExp(fileName)}"[^>]*>`), ''),
        page.source,
      );
      // Through tsx with the page's tsconfig (its JSX setting): the screens are page modules, not part of this config.
      const prerender = (await tsImport(pathToFileURL(join(root, 'src/task/prerender-first-screen.tsx')).href, {
        parentURL: import.meta.url,
        tsconfig: join(root, 'tsconfig.page.json'),
      })) as typeof FirstScreenPrerender;
      const screensFile = (workflowId: string) => {
        const [file, ...others] = workflowScreenChunks(bundle, workflowId);
        if (file === undefined || others.length > 0)
          this.error(`the screens of ${workflowId} are in ${others.length + (file ? 1 : 0)} chunks, not one`);
        const chunk = bundle[file];
        // Imported by its file name, not through Vite's code, the chunk must keep the name the workflow exports it by.
        if (chunk?.type !== 'chunk' || !chunk.exports.includes('screens')) this.error(`${file} exports no \`screens\``);
        return `/${file}`;
      };
      for (const screen of await prerender.prerenderFirstScreens(screensFile)) {
        const preloads = [...workflowChunks(bundle, screen.workflowId), ...textsChunks(bundle, screen.workflowId, screen.locale)]
          .filter((fileName) => !template.includes(`/${fileName}"`))
          .map((fileName) => `<link rel="modulepreload" crossorigin href="/${fileName}">`);
        const html = inlineStylesheets(template, bundle)
          .replace(/<html lang="[^"]*"/, `<html lang="${screen.locale}"`)
          .replace(/<title>[^<]*<\/title>/, `<title>${prerender.escapeHtml(screen.documentTitle)}</title>`)
          .replace('</head>', `${preloads.join('')}</head>`)
          .replace('<div id="root"></div>', `${screen.rootTag}${screen.markup}</div>`);
        if (!html.includes(screen.rootTag)) this.error('index.html has no empty <div id="root"></div> to prerender into');
        this.emitFile({ type: 'asset', fileName: screen.fileName, source: html });
      }
    },
  };
}

/**
 * The page's stylesheet, in the HTML: the first step is painted once the HTML and its styles are in, and a stylesheet
 * of its own is one more round trip before that (bench/page.ts, LCP). The server allows
 * exactly these <style> elements by their hash in the CSP (server/page/first-screen-file.ts, inlineStyleSources).
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

/** The chunk of a workflow's screens: its dynamic import in registry.views.ts. */
function workflowScreenChunks(bundle: Rolldown.OutputBundle, workflowId: string): string[] {
  const folder = `/src/workflows/${workflowId}/`;
  const screens = workflowScreenImports(bundle);
  return [...screens].filter((fileName) => {
    const chunk = bundle[fileName];
    return chunk?.type === 'chunk' && (chunk.facadeModuleId ?? '').replaceAll('\\', '/').includes(folder);
  });
}

/**
 * The chunk of a workflow's screens and the chunks it imports statically. Not the chunks the screens import
 * dynamically themselves (the steps after the first, src/workflows/lazy-screen.tsx; their texts, textsChunks): they
 * download once the first step is shown, after what the first screen needs.
 */
function workflowChunks(bundle: Rolldown.OutputBundle, workflowId: string): string[] {
  const screens = new Set(workflowScreenChunks(bundle, workflowId));
  return chunksWithImports(bundle, (chunk) => screens.has(chunk.fileName));
}

/**
 * The chunk of a workflow's texts in one language (workflowTexts in src/workflows/lazy-screen.tsx), which the screens need before they
 * render: the page prerendered in that language preloads it, and no other language's.
 */
function textsChunks(bundle: Rolldown.OutputBundle, workflowId: string, locale: string): string[] {
  const file = `/src/workflows/${workflowId}/texts.${locale}.ts`;
  return chunksWithImports(bundle, (chunk) => chunk.isDynamicEntry && (chunk.facadeModuleId ?? '').replaceAll('\\', '/').endsWith(file));
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

/** What the chunk holding registry.views.ts imports dynamically: the workflows' screens. */
function workflowScreenImports(bundle: Rolldown.OutputBundle): Set<string> {
  const views = Object.values(bundle).find((item) => item.type === 'chunk' && holds(item, screensTableModule));
  return new Set(views?.type === 'chunk' ? views.dynamicImports : []);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The page's text files compressed once, at build time, at the highest levels (bench/page.ts: on Slow 4G the
 * uncompressed entry chunk alone took about 1.8 s to download, most of the LCP). The server sends `<file>.br` or
 * `<file>.gz` by Accept-Encoding (@fastify/static preCompressed, server/page/page-routes.ts) and the original to a
 * client that offers neither, so the originals stay. Brotli at quality 11 takes about a second for the entry chunk:
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
 * first calls them. bench/page.ts, traced (BENCH_PAGE_TRACE, 5 loads each): the main thread's work from the app
 * chunk's arrival to the first step's hydration 186-321 ms without, 70-119 ms with. The hint must come before any
 * code, so it is added once Vite has written the chunk's own first line (its preload map), in the last
 * generateBundle, and that chunk's compressed copies are written again.
 */
function compileHintsForFirstScreens(): Plugin {
  return {
    name: 'compile-hints-for-first-screens',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const fileName of firstScreenChunks(bundle)) {
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
function firstScreenChunks(bundle: Rolldown.OutputBundle): string[] {
  const screens = workflowScreenImports(bundle);
  return chunksWithImports(bundle, (chunk) => {
    const facade = (chunk.facadeModuleId ?? '').replaceAll('\\', '/');
    return (
      chunk.isEntry ||
      preloadedModules.some((pattern) => holds(chunk, pattern)) ||
      screens.has(chunk.fileName) ||
      /\/src\/(workflows\/[^/]+\/texts|ui\/i18n\/shell-texts)\.[a-z]+\.ts$/.test(facade)
    );
  });
}

/**
 * The shell in one chunk, the app chunk: every module src/app-root.tsx runs that the entry (src/main.tsx) has not
 * already loaded. Rolldown would otherwise move a module of the shell that two lazily loaded chunks share (a
 * workflow's screen that reads the task with the API client, which the preview uses too) into a chunk of its own,
 * which the app chunk then imports and so every page preloads: one more file, and the query client split from the
 * shell, 1.6 KB gzip more on every link for a screen of one workflow (tests/integration/page-build.test.ts). The
 * group's modules are known once the module graph is (buildEnd), before the chunks are made.
 */
function shellChunk(): { plugin: Plugin; group: Rolldown.CodeSplittingGroup } {
  const shell = new Set<string>();
  const plugin: Plugin = {
    name: 'shell-chunk',
    apply: 'build',
    buildEnd() {
      shell.clear();
      const staticClosure = (start: string | undefined) => {
        const found = new Set<string>();
        const visit = (id: string) => {
          if (found.has(id)) return;
          found.add(id);
          for (const imported of this.getModuleInfo(id)?.importedIds ?? []) visit(imported);
        };
        if (start !== undefined) visit(start);
        return found;
      };
      const ids = [...this.getModuleIds()];
      const entry = staticClosure(ids.find((id) => /[\\/]src[\\/]main\.tsx$/.test(id)));
      // A build of another entry (tests/helpers/page-build.ts input) has no shell.
      if (entry.size === 0) return;
      for (const id of staticClosure(ids.find((id) => appModule.test(id)))) if (!entry.has(id)) shell.add(id);
    },
  };
  // Its modules only: what they import beyond them is the entry's, already loaded before the app chunk.
  return { plugin, group: { name: 'app-root', test: (id) => shell.has(id), includeDependenciesRecursively: false } };
}

const shell = shellChunk();

export default defineConfig({
  plugins: [
    react(),
    shell.plugin,
    refuseServerModules(),
    preloadTaskPageChunks(),
    prerenderFirstScreens(),
    compressPage(),
    compileHintsForFirstScreens(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No data: URLs for scripts and nothing inline: the CSP allows scripts from this origin only.
    assetsInlineLimit: 0,
    // Every browser the portal supports preloads modules itself (Chrome 66, Firefox 115, Safari 17); an older one
    // only loads a little later. The polyfill was 1.6 KB of the entry chunk, run before the session request.
    modulePreload: { polyfill: false },
    sourcemap: false,
    rolldownOptions: { output: { codeSplitting: { groups: [shell.group] } } },
  },
  server: {
    port: 5173,
    // Both loopback names must reach it: the preview at localhost frames the task page at 127.0.0.1,
    // another site, as the real portal does.
    host: '127.0.0.1',
    proxy: { '/api': serverUrl, '/emulator': serverUrl, '/healthz': serverUrl },
  },
});
