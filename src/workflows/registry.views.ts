import type { WorkflowId } from './registry';
import type { WorkflowScreens } from '@partner-task-kit/page';

/**
 * How each workflow's screens load: one line per id of `registry.ts` (a missing or misspelt one fails the type check),
 * each the step switch that exports its `screens`. Only the type comes from registry.ts, so the definitions stay out
 * of the page's JavaScript.
 *
 * Page only, and a chunk of its own (src/main.tsx hands it to the page by a dynamic import()) that no link's
 * prerendered first page loads: that page names its own workflow's screens by their file
 * (packages/page/src/workflows/workflow-views.tsx), so a workflow added here adds nothing to the links of the others. The plain
 * index.html preloads it (packages/vite-plugin): a link whose workflow has no prerendered page learns which screens to
 * fetch here. It exports nothing else, as the page loads every export of it.
 */
const loaders = {
  'safety-training': () => import('./safety-training/safety-training-step'),
  availability: () => import('./availability/availability-step'),
  'background-check': () => import('./background-check/background-check-step'),
  'work-authorization': () => import('./work-authorization/work-authorization-step'),
} satisfies Record<WorkflowId, () => Promise<{ screens: WorkflowScreens }>>;

/** Looked up by the id a task has stored, which is a plain string. */
export const screenLoaders: Readonly<Record<string, () => Promise<{ screens: WorkflowScreens }>>> = loaders;
