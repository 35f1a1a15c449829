import { DEFAULT_WORKFLOW_ID, listWorkflows, type WorkflowId } from './registry';
import { safetyTrainingServer } from './safety-training/definition.server';
import { workflowCatalog, type WorkflowCatalog, type WorkflowServerModule } from '@partner-task-kit/workflow';

/**
 * Server halves of the workflows in `registry.ts`, by workflow id. Never imported by the page (packages/vite-plugin
 * refuses it). Every workflow has its line, `undefined` for one that grades nothing and so keeps no secret: a workflow
 * registered without a line here then fails the type check instead of its first graded submission.
 */
const serverModules = {
  'safety-training': safetyTrainingServer,
  availability: undefined,
  'background-check': undefined,
  'work-authorization': undefined,
} satisfies Record<WorkflowId, WorkflowServerModule | undefined>;

/** What the server runs (server/main.ts hands it to the engine): every workflow, with its server half. */
export const serverWorkflows: WorkflowCatalog = workflowCatalog(listWorkflows(), { defaultWorkflow: DEFAULT_WORKFLOW_ID, serverModules });
