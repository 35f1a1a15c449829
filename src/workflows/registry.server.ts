import type { WorkflowId } from './registry';
import { safetyTrainingServer } from './safety-training/definition.server';
import type { WorkflowServerModule } from './workflow-definition';

/**
 * Server halves of the workflows in `registry.ts`, by workflow id. Never imported by the page (vite.config.ts).
 * Every workflow has its line, `undefined` for one that grades nothing and so keeps no secret: a workflow registered
 * without a line here then fails the type check instead of its first graded submission.
 */
const serverModules = {
  'safety-training': safetyTrainingServer,
  availability: undefined,
  'background-check': undefined,
  'work-authorization': undefined,
} satisfies Record<WorkflowId, WorkflowServerModule | undefined>;

/** Looked up by the id a task has stored, which is a plain string. */
export const workflowServerModules: Readonly<Record<string, WorkflowServerModule | undefined>> = serverModules;
