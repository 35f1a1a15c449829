import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { WorkflowId } from './registry';
import type { StepViewProps } from './step-view-props';

type StepViewModule = { default: ComponentType<StepViewProps> };

/**
 * How each workflow's screens load: one line per id of `registry.ts` (a missing or misspelt one fails the type check).
 * Only the type comes from there, so the definitions stay out of the page's initial JavaScript.
 */
const loaders = {
  'safety-training': () => import('./safety-training/safety-training-step').then((module) => ({ default: module.SafetyTrainingStep })),
  availability: () => import('./availability/availability-step').then((module) => ({ default: module.AvailabilityStep })),
  'background-check': () => import('./background-check/background-check-step').then((module) => ({ default: module.BackgroundCheckStep })),
} satisfies Record<WorkflowId, () => Promise<StepViewModule>>;

/**
 * A workflow's screens, fetched once (again after a failure), as a lazy component that renders at once when the module
 * is already in. React.lazy suspends on a promise even when it has settled (it learns so a microtask later), and a
 * Suspense boundary still suspended while hydrating when the session answers is dropped and rendered anew: the
 * prerendered step would flash to its fallback. React.lazy takes the module synchronously from a thenable that calls
 * back at once, so that is what it gets once the module is in.
 */
function lazyScreens(load: () => Promise<StepViewModule>) {
  let loaded: StepViewModule | undefined;
  let loading: Promise<StepViewModule> | undefined;
  const fetchOnce = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const settled = (module: StepViewModule) => ({ then: (resolve: (value: StepViewModule) => void) => resolve(module) });
  const view = lazy(() => (loaded ? (settled(loaded) as unknown as Promise<StepViewModule>) : fetchOnce()));
  return { view, fetch: fetchOnce };
}

const screens = Object.fromEntries(Object.entries(loaders).map(([id, load]) => [id, lazyScreens(load)]));

/**
 * Page only: the screens of each workflow, loaded on demand so a workflow's components and texts are not part of
 * the task page's initial JavaScript (at most 120 KB gzip).
 */
export const workflowViews: Record<string, LazyExoticComponent<ComponentType<StepViewProps>>> = Object.fromEntries(
  Object.entries(screens).map(([id, { view }]) => [id, view]),
);

/**
 * Starts fetching the screens while the session opens instead of after it (bench/page.ts: the step chunk was requested
 * only once /api/session had answered, one more round trip before the first step could paint). The link's
 * `workflow` variable names the likely one (a task opened before keeps its stored workflow, which the lazy component
 * then fetches); without it every registered workflow is fetched, since which one is the default is known only to
 * registry.ts, whose definitions stay out of the page's initial JavaScript. Settles when they are in (or failed: the
 * lazy component asks again, and its failure is shown where it renders).
 */
export async function preloadWorkflowViews(requested: string | undefined): Promise<void> {
  // A name this page does not know, the server refuses too (unknown_workflow): nothing to fetch.
  const loads = requested === undefined ? Object.values(screens) : Object.hasOwn(screens, requested) ? [screens[requested]!] : [];
  await Promise.all(loads.map(({ fetch }) => fetch().catch(() => {})));
}

/**
 * The workflows whose first screen is the same for every worker on every day, so the build renders it into the HTML
 * (src/task/prerender-first-screen.tsx) and the worker sees it before any script has run. The availability workflow's
 * first step bounds its date picker by the worker's own today, which a build cannot know: it renders on arrival.
 */
export const prerenderedWorkflows: readonly WorkflowId[] = ['safety-training'];
