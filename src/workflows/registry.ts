import { availability } from './availability/definition';
import { safetyTraining } from './safety-training/definition';
import { backgroundCheckWorkflow } from './background-check/definition';
import { workAuthorization } from './work-authorization/definition';
import type { WorkflowDefinition } from '@partner-task-kit/workflow';

/**
 * The workflows the server runs until it finds them by their folders as the page's build does
 * (docs/architecture.md#a-workflow-is-a-folder); registry.server.ts hands them to it with their server halves.
 */
const workflowIds = ['safety-training', 'availability', 'background-check', 'work-authorization'] as const;
export type WorkflowId = (typeof workflowIds)[number];

// Each definition under its own id: the mapped type also refuses a definition registered under another's id.
const workflows = {
  'safety-training': safetyTraining,
  availability,
  'background-check': backgroundCheckWorkflow,
  'work-authorization': workAuthorization,
} satisfies { [Id in WorkflowId]: WorkflowDefinition<Id> };

/** The workflow of a new task whose link names none (docs/platform.md#partner-task-configuration). */
export const DEFAULT_WORKFLOW_ID: WorkflowId = safetyTraining.id;

/** Every workflow, in the order of `workflowIds`. */
export function listWorkflows(): readonly WorkflowDefinition[] {
  return workflowIds.map((id) => workflows[id]);
}
