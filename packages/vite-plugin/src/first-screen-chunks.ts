import type { Rolldown } from 'vite';
import type { AppWorkflows } from './app-workflows.ts';
import { chunkOfModule, chunksWithImports, holds, moduleId } from './bundle-chunks.ts';
import { appModule, shellTextsModule } from './engine-modules.ts';
import { SCREENS_TABLE, workflowScreensModule } from './screens-modules.ts';

/**
 * index.html preloads the app chunk with its static imports: otherwise the browser would learn of it only when the
 * entry runs, one more round trip on a slow network (packages/kit-tests/bench/page.ts). And the table of the workflows'
 * screens, which a link whose workflow has no prerendered page needs to know which screens to fetch, as the app starts.
 * The workflows' screens are not preloaded here: fetched when the app starts
 * (packages/page/src/workflows/workflow-views.tsx), they still arrive before the session's answer is rendered, and
 * preloading them competed with the app chunk for bandwidth (the LCP packages/kit-tests/bench/page.ts measures was no
 * better with them). A prerendered first page leaves the table out (prerender-first-screens.ts).
 */
export const preloadedModules: readonly string[] = [appModule, SCREENS_TABLE];

/** The chunk of a workflow's module of screens (virtual:partner-task-kit/screens/<id>), which exports `screens`. */
export function workflowScreensChunk(bundle: Rolldown.OutputBundle, workflowId: string): Rolldown.OutputChunk | undefined {
  const id = workflowScreensModule(workflowId);
  return Object.values(bundle).find((item): item is Rolldown.OutputChunk => item.type === 'chunk' && moduleId(item.facadeModuleId) === id);
}

/**
 * What a link's first page of a workflow needs before its first step can hydrate, beside the app: the workflow's module
 * of screens, its first step's chunk and its texts in the page's language, each with what it imports statically. Not
 * the other steps (fetched while the worker reads the first, packages/page/src/workflows/folder-screens.tsx), nor the
 * other languages' texts.
 */
export function firstStepChunks(bundle: Rolldown.OutputBundle, workflows: AppWorkflows, workflowId: string, locale: string): string[] {
  const folder = workflows.folders().find((each) => each.id === workflowId);
  const definition = workflows.definitions().find((each) => each.id === workflowId);
  const firstStep = definition?.steps[0]?.id;
  const screens = workflowScreensChunk(bundle, workflowId);
  return [
    ...(screens ? chunksWithImports(bundle, (chunk) => chunk === screens) : []),
    ...chunkOfModule(bundle, firstStep === undefined ? undefined : folder?.steps.get(firstStep)),
    ...chunkOfModule(bundle, folder?.texts.get(locale)),
  ];
}

/**
 * What a link's first screen runs: the entry with its static imports, the app chunk, the table of the workflows'
 * screens (index.html), the shell's texts, and of each workflow its module of screens, its first step and its texts in
 * each language (the first screens preload them). Not the preview's chunks, nor the later steps, which load after the
 * first step is shown and call few of their functions at once.
 */
export function firstScreenChunks(bundle: Rolldown.OutputBundle, workflows: AppWorkflows): string[] {
  const locales = new Set(workflows.folders().flatMap((folder) => [...folder.texts.keys()]));
  const perWorkflow = workflows
    .folders()
    .flatMap((folder) =>
      (locales.size === 0 ? [undefined] : [...locales]).flatMap((locale) => firstStepChunks(bundle, workflows, folder.id, locale ?? '')),
    );
  return [
    ...new Set([
      ...chunksWithImports(
        bundle,
        (chunk) =>
          chunk.isEntry || preloadedModules.some((id) => holds(chunk, id)) || shellTextsModule.test(moduleId(chunk.facadeModuleId)),
      ),
      ...perWorkflow,
    ]),
  ];
}
