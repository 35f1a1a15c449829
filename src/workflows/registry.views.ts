import type { ComponentType } from 'react';
import { locales, pickLocale, type Locale } from '../ui/i18n/locale';
import { lazyScreen } from './lazy-screen';
import type { WorkflowId } from './registry';
import type { StepViewProps } from './step-view-props';

/**
 * A workflow's screens; `loadTexts` when its texts come one chunk per language (lazy-screen.tsx), which are then in
 * before the screens count as loaded.
 */
type ScreensModule = { default: ComponentType<StepViewProps>; loadTexts?: (locale: Locale) => Promise<unknown> };

/**
 * How each workflow's screens load: one line per id of `registry.ts` (a missing or misspelt one fails the type check).
 * Only the type comes from there, so the definitions stay out of the page's initial JavaScript.
 */
const loaders = {
  'safety-training': () =>
    import('./safety-training/safety-training-step').then((module) => ({
      default: module.SafetyTrainingStep,
      loadTexts: module.loadSafetyTrainingTexts,
    })),
  availability: () =>
    import('./availability/availability-step').then((module) => ({
      default: module.AvailabilityStep,
      loadTexts: module.loadAvailabilityTexts,
    })),
  'background-check': () =>
    import('./background-check/background-check-step').then((module) => ({
      default: module.BackgroundCheckStep,
      loadTexts: module.loadBackgroundCheckTexts,
    })),
} satisfies Record<WorkflowId, () => Promise<ScreensModule>>;

/**
 * The languages whose texts the screens need: the page's own (main.tsx sets it on <html> before the app loads, as
 * useLocale() reads it), or every one at build time, which renders each (src/task/prerender-first-screen.tsx).
 */
function pageLocales(): readonly Locale[] {
  return typeof document === 'undefined' ? locales : [pickLocale([document.documentElement.lang])];
}

const screens = Object.fromEntries(
  Object.entries(loaders).map(([id, load]) => [
    id,
    lazyScreen<StepViewProps>(async () => {
      const module: ScreensModule = await load();
      await Promise.all(pageLocales().map((locale) => module.loadTexts?.(locale)));
      return module;
    }),
  ]),
);

/**
 * Page only: the screens of each workflow, loaded on demand so a workflow's components and texts are not part of
 * the task page's initial JavaScript (at most 100 KB gzip, docs/development.md#benchmarks).
 */
export const workflowViews: Record<string, ComponentType<StepViewProps>> = Object.fromEntries(
  Object.entries(screens).map(([id, { view }]) => [id, view]),
);

/**
 * Starts fetching the screens while the session opens instead of after it (bench/page.ts: the step chunk was requested
 * only once /api/session had answered, one more round trip before the first step could paint). The link's
 * `workflow` variable names the likely one (a task opened before keeps its stored workflow, which the lazy component
 * then fetches); without it every registered workflow is fetched, since which one is the default is known only to
 * registry.ts, whose definitions stay out of the page's initial JavaScript. Settles when they are in, true, or failed,
 * false (the lazy component asks again, and its failure is shown where it renders).
 */
export async function preloadWorkflowViews(requested: string | undefined): Promise<boolean> {
  // A name this page does not know, the server refuses too (unknown_workflow): nothing to fetch.
  const loads = requested === undefined ? Object.values(screens) : Object.hasOwn(screens, requested) ? [screens[requested]!] : [];
  const fetched = await Promise.all(
    loads.map(({ fetch }) =>
      fetch().then(
        () => true,
        () => false,
      ),
    ),
  );
  return fetched.every(Boolean);
}

/**
 * The workflows whose first screen the build renders into the HTML (src/task/prerender-first-screen.tsx), so the
 * worker sees it before any script has run: every one. What a build cannot know (the availability workflow bounds its
 * date picker by the worker's own today) is added once the page has hydrated (its start-step.tsx).
 */
export const prerenderedWorkflows: readonly WorkflowId[] = ['safety-training', 'availability', 'background-check'];
