import { useState } from 'react';
import { locales, pickLocale, type Locale } from '../ui/i18n/locale.ts';
import { lazyScreen, type LazyScreen } from './lazy-screen.tsx';
import { MissingStepScreenError, type StepViewProps, type WorkflowScreens } from './step-view-props.ts';

/**
 * The languages whose texts the screens need: the page's own (mount-task-page.ts sets it on <html> before the app
 * loads, as useLocale() reads it), or every one at build time, which renders each
 * (packages/page/src/task/prerender-first-screen.tsx).
 */
export function pageLocales(): readonly Locale[] {
  return typeof document === 'undefined' ? locales : [pickLocale([document.documentElement.lang])];
}

/**
 * Screens the page's HTML names by their file: a link's prerendered first page names its own workflow's
 * (packages/page/src/task/first-screen.tsx), which it preloads, so it needs neither the table of every workflow's screens nor any
 * line of it (docs/development.md#benchmarks: a workflow added weighs nothing on the links of the others).
 */
const namedFiles = new Map<string, string>();

/**
 * How each workflow's screens load, by workflow id: the app's table of them, which the page's build writes from the
 * workflow folders (`virtual:partner-task-kit/screens`, docs/architecture.md#a-workflow-is-a-folder).
 */
export interface WorkflowScreensTable {
  readonly screenLoaders: Readonly<Record<string, () => Promise<{ screens: WorkflowScreens }>>>;
}

/** The app's table, loaded when first needed: a dynamic import() on the page, so it is a chunk of its own. */
export type LoadWorkflowScreensTable = () => Promise<WorkflowScreensTable>;

// Set before anything renders (setWorkflowScreensTable): renderApp and the prerender take it as a parameter.
let loadTable: LoadWorkflowScreensTable;

/**
 * Takes the app's table of screens (docs/architecture.md#what-the-app-hands-the-engine), before anything renders: the
 * page's (packages/page/src/app-root.tsx, from packages/page/src/task/mount-task-page.ts), or at build time the prerender's.
 */
export function setWorkflowScreensTable(load: LoadWorkflowScreensTable): void {
  loadTable = load;
}

/** A workflow this page has no screens for shows none of its steps: the step runner says so (UnknownStepScreen). */
export const noScreens: WorkflowScreens = {
  view: ({ stepId }) => {
    throw new MissingStepScreenError(stepId);
  },
};

export async function loadScreens(workflowId: string): Promise<WorkflowScreens> {
  const file = namedFiles.get(workflowId);
  // A file of this build that the HTML names, not a module of the source: Vite leaves the import as it is.
  if (file !== undefined) return ((await import(/* @vite-ignore */ file)) as { screens: WorkflowScreens }).screens;
  const { screenLoaders } = await loadTable();
  const load = Object.hasOwn(screenLoaders, workflowId) ? screenLoaders[workflowId] : undefined;
  return load ? (await load()).screens : noScreens;
}

const screensById = new Map<string, LazyScreen<StepViewProps>>();
/**
 * Each workflow's screens once loaded, for preloadWorkflowViews to fetch a step's with: an import() of a module already
 * in settles only in a later task of the page, one more wait before the prerendered step hydrates.
 */
const loadedScreens = new Map<string, WorkflowScreens>();

function screensOf(workflowId: string): LazyScreen<StepViewProps> {
  let screens = screensById.get(workflowId);
  if (!screens) {
    // The texts of the page's language are in before the screens count as loaded: the screens read them as they render.
    screens = lazyScreen<StepViewProps>(async () => {
      const loaded = await loadScreens(workflowId);
      await Promise.all(pageLocales().map((locale) => loaded.loadTexts?.(locale)));
      loadedScreens.set(workflowId, loaded);
      return { default: loaded.view };
    });
    screensById.set(workflowId, screens);
  }
  return screens;
}

/**
 * Page only: the screens of the task's workflow, loaded on demand so a workflow's components and texts are not part of
 * the task page's initial JavaScript (at most 100 KB gzip, docs/development.md#benchmarks). Its workflow is the one
 * it mounted with, for its life: a task never changes workflow, and the runner mounts it anew for each step.
 */
export function WorkflowStepView(props: StepViewProps) {
  const [{ view: Screens }] = useState(() => screensOf(props.task.workflow.id));
  return <Screens {...props} />;
}

/**
 * Starts fetching the screens while the session opens instead of after it (packages/kit-tests/bench/page.ts: the step chunk was requested
 * only once /api/session had answered, one more round trip before the first step could paint). The link's `workflow`
 * variable names the likely one (a task opened before keeps its stored workflow, which the lazy component then
 * fetches); without it every workflow of the app's table of screens is fetched, since which one is the default is known
 * only to the server (the app's server/main.ts names it), and the definitions stay out of the page's JavaScript. `file` is where the page's
 * HTML says that workflow's screens are (a prerendered first page names its own), `step` the step whose screen is fetched
 * with them (the prerendered one: hydrated with its code in, it renders with no Suspense boundary, as in the HTML).
 * Settles when they are in, true, or failed, false (the lazy component asks again, and its failure is shown where it
 * renders).
 */
export async function preloadWorkflowViews(requested: string | undefined, file?: string, step?: string): Promise<boolean> {
  if (requested !== undefined && file !== undefined) namedFiles.set(requested, file);
  let ids: readonly string[];
  try {
    ids = requested === undefined ? Object.keys((await loadTable()).screenLoaders) : [requested];
  } catch {
    return false;
  }
  const fetched = await Promise.all(
    ids.map((id) =>
      screensOf(id)
        .fetch()
        .then(() => step && loadedScreens.get(id)?.loadStep?.(step))
        .then(
          () => true,
          () => false,
        ),
    ),
  );
  return fetched.every(Boolean);
}
