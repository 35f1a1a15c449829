import type { WorkflowCatalog } from '../src/workflows/workflow-catalog';
import type { AppMigrations } from './store/schema-migration';

/** What an app hands the engine once, in its server entry (docs/architecture.md#dependencies-passed-in). */
export interface KitApp {
  /** The app's workflows, with their server halves. */
  workflows: WorkflowCatalog;
  /**
   * The app's own migrations, recorded in `app_migration` apart from the engine's and applied after them
   * (docs/operations.md#an-apps-own-migrations). Absent: the app has none, and its side is neither applied nor checked.
   */
  migrations?: AppMigrations;
}
