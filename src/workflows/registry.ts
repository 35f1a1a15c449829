import { availability } from './availability/definition';
import { safetyTraining } from './safety-training/definition';
import { backgroundCheckWorkflow } from './background-check/definition';
import { workAuthorization } from './work-authorization/definition';
import type { WorkflowDefinition } from '@partner-task-kit/workflow';

/**
 * The workflows this deployment runs, shared by the page and the server, in the order the preview portal offers them.
 * This list is the one the three registries are checked against: an id here needs its entry below, one in
 * `registry.views.ts` (its screens, page only) and one in `registry.server.ts` (its secrets, server only), or
 * `tsc -b` fails; a misspelt id fails the same way. Each side imports only its half, which is what keeps answer keys
 * out of the page bundle (the other two files import only this type from here). `npm run new-workflow` adds all four.
 */
const workflowIds = ['safety-training', 'availability', 'background-check', 'work-authorization'] as const;
export type WorkflowId = (typeof workflowIds)[number];

export interface RegisteredWorkflow {
  definition: WorkflowDefinition;
}

// Each definition under its own id: the mapped type also refuses a definition registered under another's id.
const workflows = {
  'safety-training': { definition: safetyTraining },
  availability: { definition: availability },
  'background-check': { definition: backgroundCheckWorkflow },
  'work-authorization': { definition: workAuthorization },
} satisfies { [Id in WorkflowId]: { definition: WorkflowDefinition<Id> } };

/**
 * The workflow of a new task whose link names none. A link chooses another with the designer variable `workflow=<id>`
 * appended to the iframe URL (docs/platform.md#partner-task-configuration), which the page sends with `POST /api/session`.
 */
export const DEFAULT_WORKFLOW_ID: WorkflowId = safetyTraining.id;

function isWorkflowId(id: string): id is WorkflowId {
  // hasOwn, not `in`: a name inherited from Object ("constructor") is no workflow.
  return Object.hasOwn(workflows, id);
}

export function findWorkflow(id: string): RegisteredWorkflow | undefined {
  return isWorkflowId(id) ? workflows[id] : undefined;
}

/** Every registered workflow, in the order of `workflowIds` (the preview portal offers them so). */
export function listWorkflows(): readonly WorkflowDefinition[] {
  return workflowIds.map((id) => workflows[id].definition);
}

/**
 * The workflows whose first screen the build renders into the HTML (packages/page/src/task/prerender-first-screen.tsx), so the
 * worker sees it before any script has run: every one. What a build cannot know (the availability workflow bounds its
 * date picker by the worker's own today) is added once the page has hydrated (its start-step.tsx). Read by the build
 * alone (packages/vite-plugin, which loads this module by its path), never by the page.
 *
 * @public
 */
export const prerenderedWorkflows: readonly WorkflowId[] = ['safety-training', 'availability', 'background-check', 'work-authorization'];
