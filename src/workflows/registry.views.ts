import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { StepViewProps } from './step-view-props';

type StepViewModule = { default: ComponentType<StepViewProps> };

/** How each workflow's screens load. A module is fetched once: `import()` returns the same promise every time. */
const loaders: Record<string, () => Promise<StepViewModule>> = {
  'safety-training': () => import('./safety-training/safety-training-step').then((module) => ({ default: module.SafetyTrainingStep })),
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
 * only once /api/session had answered, one more round trip before the first step could paint). Every registered
 * workflow is fetched: the task's own is known only from the session. A deployment with many workflows would pick
 * by task flow here.
 */
export function preloadWorkflowViews(): void {
  // A failed preload is not an error: the lazy component asks again and its failure is shown where it renders.
  for (const load of Object.values(loaders)) load().catch(() => {});
}
