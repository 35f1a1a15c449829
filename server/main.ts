import { serverWorkflows } from '../src/workflows/registry.server';
import { appMigrations } from './app-migrations';
import { runKit } from '@partner-task-kit/server';

// The app's server: the engine, given this app's workflows and migrations. Without arguments it serves;
// `tenants …`, `migrate`, `doctor`, `tasks …`, `outbox …` and `partner-keys …` run that command.
await runKit(process.argv.slice(2), { workflows: serverWorkflows, migrations: appMigrations });
