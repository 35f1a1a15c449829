import type { WorkflowCatalog } from '../src/workflows/workflow-catalog';

/** What an app hands the engine once, in its server entry (docs/architecture.md#dependencies-passed-in). */
export interface KitApp {
  /** The app's workflows, with their server halves. */
  workflows: WorkflowCatalog;
}
