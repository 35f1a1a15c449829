import { safetyTrainingServer } from './safety-training/definition.server';
import type { WorkflowServerModule } from './workflow-definition';

/** Server halves of the workflows in `registry.ts`, by workflow id. Never imported by the page (vite.config.ts). */
export const workflowServerModules: Record<string, WorkflowServerModule> = {
  'safety-training': safetyTrainingServer,
};
