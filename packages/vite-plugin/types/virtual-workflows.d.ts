/**
 * The app's workflows, each a folder of src/workflows/ (docs/architecture.md#how-the-server-finds-them), which its
 * server entry hands the engine: `runKit(argv, { workflows, defaultWorkflow })` (server/main.ts). Server only: the
 * server halves hold answer keys.
 */
declare module 'virtual:partner-task-kit/workflows' {
  import type { FolderWorkflow } from '@partner-task-kit/workflow';

  const workflows: readonly FolderWorkflow[];
  export default workflows;
}
