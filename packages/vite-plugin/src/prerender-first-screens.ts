import type { Plugin, Rolldown } from 'vite';
import type { ShellTextOverrides, WorkflowScreens } from '@partner-task-kit/page';
import type { FirstScreenPrerender, FolderScreenModules } from '@partner-task-kit/page/internal';
import type { AppWorkflows } from './app-workflows.ts';
import { chunksWithImports, escapeRegExp, holds } from './bundle-chunks.ts';
import { appModule, engineModule } from './engine-modules.ts';
import { firstStepChunks, workflowScreensChunk } from './first-screen-chunks.ts';
import type { LoadPageModule } from './page-loader.ts';
import { SCREENS_TABLE } from './screens-modules.ts';
import type { WorkflowFolder } from './workflow-folders.ts';

/** The app's module of its versions of the shell's texts, by its path from the root and its real path. */
export interface ShellTextsModule {
  option: string;
  file: string;
}

/**
 * Writes, beside index.html, one page per workflow and language with its first step already in #root
 * (packages/page/src/task/prerender-first-screen.tsx), which the server sends to a link with a valid context
 * (packages/server/src/page/first-screen-file.ts). The step is painted once the HTML is in, its styles inlined, before
 * any script has run: packages/kit-tests/bench/page.ts measured the first step's paint waiting on the app chunk, the
 * session's answer and the step's chunk, one after the other. Each such page also preloads what hydrating the step
 * needs, and nothing the first step does not (first-screen-chunks.ts): #root names the file of the workflow's screens,
 * which the page imports by that name (packages/page/src/workflows/workflow-views.tsx), so it leaves out the table of
 * every workflow's screens that index.html preloads, and a workflow added weighs nothing on the links of the others.
 * Emitted in generateBundle, so compressPage writes their .br and .gz like index.html's.
 */
export function prerenderFirstScreens(workflows: AppWorkflows, shellTexts: () => ShellTextsModule | undefined): Plugin {
  return {
    name: 'prerender-first-screens',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      // A build of another entry (packages/kit-tests/helpers/page-build.ts input) has no page to prerender into.
      if (html?.type !== 'asset' || typeof html.source !== 'string') return;
      const app = new Set(chunksWithImports(bundle, (chunk) => chunk.isEntry || holds(chunk, appModule)));
      const table = chunksWithImports(bundle, (chunk) => holds(chunk, SCREENS_TABLE)).filter((fileName) => !app.has(fileName));
      const template = table.reduce(
        (source, fileName) => source.replace(new RegExp(`<link rel="modulepreload"[^>]*href="/${escapeRegExp(fileName)}"[^>]*>`), ''),
        html.source,
      );
      // Named here but not handed to the page, the texts would be in the prerendered HTML and gone once it hydrates.
      const ownTexts = shellTexts();
      const entry = chunksWithImports(bundle, (chunk) => chunk.isEntry).map((fileName) => bundle[fileName]);
      if (ownTexts !== undefined && !entry.some((chunk) => chunk?.type === 'chunk' && holds(chunk, ownTexts.file)))
        this.error(
          `partnerTaskKit({ shellTexts: '${ownTexts.option}' }): the page's entry does not import it; hand its \`shellTexts\` to mountTaskPage in the app's src/main.tsx`,
        );
      const load = workflows.load();
      const prerender = (await load(engineModule('task/prerender-first-screen', 'tsx'))) as FirstScreenPrerender;
      const screensFile = (workflowId: string) => {
        const chunk = workflowScreensChunk(bundle, workflowId);
        if (chunk === undefined) return this.error(`the build has no chunk of the screens of ${workflowId}`);
        // Imported by its file name, not through Vite's code, the chunk must keep the name the workflow exports it by.
        if (!chunk.exports.includes('screens')) this.error(`${chunk.fileName} exports no \`screens\``);
        return `/${chunk.fileName}`;
      };
      const screens = await nodeScreens(load, workflows.folders());
      const overrides = ownTexts === undefined ? undefined : await loadShellTexts(load, ownTexts);
      const first = await prerender.prerenderFirstScreens({
        workflows: workflows.definitions(),
        screens: () => Promise.resolve({ screenLoaders: screens }),
        screensFile,
        ...(overrides !== undefined && { shellTexts: overrides }),
      });
      for (const screen of first) {
        const preloads = firstStepChunks(bundle, workflows, screen.workflowId, screen.locale)
          .filter((fileName) => !template.includes(`/${fileName}"`))
          .map((fileName) => `<link rel="modulepreload" crossorigin href="/${fileName}">`);
        const written = inlineStylesheets(template, bundle)
          .replace(/<html lang="[^"]*"/, `<html lang="${screen.locale}"`)
          .replace(/<title>[^<]*<\/title>/, `<title>${prerender.escapeHtml(screen.documentTitle)}</title>`)
          .replace('</head>', `${[...new Set(preloads)].join('')}</head>`)
          .replace('<div id="root"></div>', `${screen.rootTag}${screen.markup}</div>`);
        if (!written.includes(screen.rootTag)) this.error('index.html has no empty <div id="root"></div> to prerender into');
        this.emitFile({ type: 'asset', fileName: screen.fileName, source: written });
      }
      // The neutral screen of a returning worker's link: index.html as it is (its table of every workflow's screens, as
      // the task's own workflow is not known until its view comes), the styles inlined and the screen in #root.
      for (const screen of await prerender.prerenderOpeningScreens(overrides)) {
        const written = inlineStylesheets(html.source, bundle)
          .replace(/<html lang="[^"]*"/, `<html lang="${screen.locale}"`)
          .replace(/<title>[^<]*<\/title>/, `<title>${prerender.escapeHtml(screen.documentTitle)}</title>`)
          .replace('<div id="root"></div>', `${screen.rootTag}${screen.markup}</div>`);
        this.emitFile({ type: 'asset', fileName: screen.fileName, source: written });
      }
    },
  };
}

/**
 * The table of screens the prerender renders with: each workflow's screens built from its folder as the page's module
 * of them builds them (screens-modules.ts), the same files loaded in Node, once each.
 */
async function nodeScreens(load: LoadPageModule, folders: readonly WorkflowFolder[]) {
  const { folderScreens } = (await load(engineModule('internal', 'ts'))) as {
    folderScreens(modules: FolderScreenModules): WorkflowScreens;
  };
  const loader = (file: string) => () => load(file) as Promise<{ default: never }>;
  const loaders = (files: ReadonlyMap<string, string>) => Object.fromEntries([...files].map(([key, file]) => [key, loader(file)]));
  return Object.fromEntries(
    folders.map((folder) => {
      const screens = folderScreens({
        steps: loaders(folder.steps),
        ...(folder.texts.size > 0 && { texts: loaders(folder.texts) }),
        ...(folder.done !== undefined && { done: loader(folder.done) }),
        ...(folder.failed !== undefined && { failed: loader(folder.failed) }),
      });
      return [folder.id, () => Promise.resolve({ screens })];
    }),
  );
}

async function loadShellTexts(load: LoadPageModule, module: ShellTextsModule): Promise<ShellTextOverrides> {
  const { shellTexts } = (await load(module.file)) as { shellTexts?: unknown };
  if (typeof shellTexts !== 'object' || shellTexts === null)
    throw new Error(`${module.option} (partnerTaskKit's \`shellTexts\`) must export shellTexts`);
  return shellTexts as ShellTextOverrides;
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
