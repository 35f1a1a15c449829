import { availability } from './availability/definition';
import { safetyTraining } from './safety-training/definition';
import type { WorkflowDefinition } from './workflow-definition';

/**
 * The workflows this deployment runs, shared by the page and the server. Adding a workflow = adding its folder and
 * one line here, one in `registry.views.ts` (its screens, page only) and one in `registry.server.ts` (its secrets,
 * server only). Each side imports only its half, which is what keeps answer keys out of the page bundle.
 */
export interface RegisteredWorkflow {
  definition: WorkflowDefinition;
}

const workflows: Record<string, RegisteredWorkflow> = {
  [safetyTraining.id]: { definition: safetyTraining },
  [availability.id]: { definition: availability },
};

/**
 * The workflow of a new task whose link names none. A link chooses another with the designer variable `workflow=<id>`
 * appended to the iframe URL (spec 2.4), which the page sends with `POST /api/session`.
 */
export const DEFAULT_WORKFLOW_ID = safetyTraining.id;

export function findWorkflow(id: string): RegisteredWorkflow | undefined {
  return Object.hasOwn(workflows, id) ? workflows[id] : undefined;
}

/** Every registered workflow, in the order above (the preview portal offers them). */
export function listWorkflows(): readonly WorkflowDefinition[] {
  return Object.values(workflows).map((registered) => registered.definition);
}
