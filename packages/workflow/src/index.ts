// @partner-task-kit/workflow: the API a workflow is written with (src/workflows/README.md in the app): its steps, its
// fields, its path, its checks, its offers, and the catalog the app hands the engine. The contract between page and
// server is @partner-task-kit/workflow/contract (docs/public-api.md).
export * from './workflow-definition.ts';
export {
  folderCatalog,
  workflowCatalog,
  WorkflowCatalogError,
  type FolderWorkflow,
  type WorkflowCatalog,
  type WorkflowCatalogOptions,
} from './workflow-catalog.ts';
export * from './workflow-path.ts';
export { sensitive, sensitivePaths, maskValue } from './sensitive.ts';
export * from './file-field.ts';
export { checkOnPage } from './step-check.ts';
export { checkAgainAfterMsOf, checkAgainProblem, offerIsEmpty } from './offer-rules.ts';
