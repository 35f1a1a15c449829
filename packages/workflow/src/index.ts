// The API a workflow is written with (src/workflows/README.md in the app): its steps, its path, its checks, and the catalog the app hands
// the engine. The contract between page and server is under @partner-task-kit/workflow/contract/*.
export * from './workflow-definition.ts';
export { workflowCatalog, type WorkflowCatalog, type WorkflowCatalogOptions } from './workflow-catalog.ts';
export * from './workflow-path.ts';
export { sensitive, sensitivePaths, maskValue } from './sensitive.ts';
export * from './file-field.ts';
export { checkOnPage } from './step-check.ts';
