import type { FastifyInstance } from 'fastify';
import type { FolderWorkflow, WorkflowCatalog } from '@partner-task-kit/workflow';
import type { FutureFlags } from './future-flags.ts';
import type { AppMigrations } from './store/schema-migration.ts';

/** What an app hands the engine once, in its server entry (docs/architecture.md#dependencies-passed-in). */
export interface KitApp {
  /**
   * The app's workflows, with their server halves: the list its folders give (`import workflows from
   * 'virtual:partner-task-kit/workflows'`, docs/architecture.md#how-the-server-finds-them), or a catalog built with
   * workflowCatalog, which names its own default.
   */
  workflows: readonly FolderWorkflow[] | WorkflowCatalog;
  /**
   * The workflow of a new task whose link names none (docs/platform.md#partner-task-configuration), by its id, which is
   * its folder's name. Needed once the app has more than one workflow; with one, that one. Not with a catalog.
   */
  defaultWorkflow?: string;
  /**
   * The app's own migrations, recorded in `app_migration` apart from the engine's and applied after them
   * (docs/operations.md#an-apps-own-migrations). Absent: the app has none, and its side is neither applied nor checked.
   */
  migrations?: AppMigrations;
  /** Where the app's built page is (its Vite build's outDir); default dist/ in the working directory. */
  pageDirectory?: string;
  /**
   * The app's own routes, added to the server's Fastify app before it serves (Fastify takes none after), beside the
   * kit's: the engine's files stay as they are (docs/copied-kit.md#what-you-changed). Serving only: the commands never
   * call it.
   */
  extendApp?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * Changes of behaviour a minor version brings off by default, turned on one by one before the major version that
   * makes them the rule (docs/upgrading.md#future-flags). A name this version does not know stops the start.
   */
  future?: Partial<FutureFlags>;
}

/** The app once runKit has checked its workflows: what the server and the commands run with. */
export interface CheckedKitApp extends Omit<KitApp, 'workflows' | 'defaultWorkflow'> {
  workflows: WorkflowCatalog;
}
