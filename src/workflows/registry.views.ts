import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { StepViewProps } from './step-view-props';

type StepViewModule = { default: ComponentType<StepViewProps> };

/** How each workflow's screens load. A module is fetched once: `import()` returns the same promise every time. */
const loaders: Record<string, () => Promise<StepViewModule>> = {
  'safety-training': () => import('./safety-training/safety-training-step').then((module) => ({ default: module.SafetyTrainingStep })),
  availability: () => import('./availability/availability-step').then((module) => ({ default: module.AvailabilityStep })),
};

/**
 * Page only: the screens of each workflow, loaded on demand so a workflow's components and texts are not part of
 * the task page's initial JavaScript (at most 120 KB gzip).
 */
export const workflowViews: Record<string, LazyExoticComponent<ComponentType<StepViewProps>>> = Object.fromEntries(
  Object.entries(loaders).map(([id, load]) => [id, lazy(load)]),
);

/**
 * Starts fetching the screens while the session opens instead of after it (bench/page.ts: the step chunk was requested
 * only once /api/session had answered, one more round trip before the first step could paint). The link's
 * `workflow` variable names the likely one (a task opened before keeps its stored workflow, which the lazy component
 * then fetches); without it every registered workflow is fetched, since which one is the default is known only to
 * registry.ts, whose definitions stay out of the page's initial JavaScript.
 */
export function preloadWorkflowViews(requested: string | undefined): void {
  // A name this page does not know, the server refuses too (unknown_workflow): nothing to fetch.
  const loads = requested === undefined ? Object.values(loaders) : Object.hasOwn(loaders, requested) ? [loaders[requested]!] : [];
  // A failed preload is not an error: the lazy component asks again and its failure is shown where it renders.
  for (const load of loads) load().catch(() => {});
}
