import { fixtureWorkflows } from '../fixtures/workflows';
import type { WorkflowCatalog } from '../../src/workflows/workflow-catalog';

/** The workflows the engine's tests run a server with: fixtures of their own, none of the app's (tests/fixtures/workflows). */
export const testWorkflows: WorkflowCatalog = fixtureWorkflows;
