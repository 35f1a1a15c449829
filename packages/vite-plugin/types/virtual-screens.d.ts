/**
 * The table of the app's workflows' screens, which its entry hands the page:
 * `mountTaskPage(root, () => import('virtual:partner-task-kit/screens'), shellTexts)` (src/main.tsx).
 */
declare module 'virtual:partner-task-kit/screens' {
  import type { WorkflowScreensTable } from '@partner-task-kit/page';

  export const screenLoaders: WorkflowScreensTable['screenLoaders'];
}
