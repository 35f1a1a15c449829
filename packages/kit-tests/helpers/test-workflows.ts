import { fixtureWorkflows } from '../fixtures/workflows';
import type { WorkflowCatalog } from '@partner-task-kit/workflow/workflow-catalog';

/** The workflows the engine's tests run a server with: fixtures of their own, none of the app's (packages/kit-tests/fixtures/workflows). */
export const testWorkflows: WorkflowCatalog = fixtureWorkflows;
