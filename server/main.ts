import workflows from 'virtual:partner-task-kit/workflows';
import { appMigrations } from './app-migrations';
import { runKit } from '@partner-task-kit/server';

// The app's server: the engine, given this app's workflows (each a folder of src/workflows/, found by the kit) and
// migrations. Without arguments it serves; `tenants …`, `migrate`, `doctor`, `tasks …`, `outbox …` and
// `partner-keys …` run that command. `defaultWorkflow` is the workflow of a link that names none.
await runKit(process.argv.slice(2), { workflows, defaultWorkflow: 'safety-training', migrations: appMigrations });
