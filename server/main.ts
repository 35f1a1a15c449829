import { serverWorkflows } from '../src/workflows/registry.server';
import { runKit } from './run-kit';

// The app's server: the engine, given this app's workflows. Without arguments it serves; `tenants …` runs that command.
await runKit(process.argv.slice(2), { workflows: serverWorkflows });
