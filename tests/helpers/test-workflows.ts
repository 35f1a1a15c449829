import { serverWorkflows } from '../../src/workflows/registry.server';
import type { WorkflowCatalog } from '../../src/workflows/workflow-catalog';

/** The workflows the engine's tests run a server with. */
export const testWorkflows: WorkflowCatalog = serverWorkflows;
