import { readEnvironment } from './config.ts';
import { resolveFutureFlags } from './future-flags.ts';
import { folderCatalog, WorkflowCatalogError, type WorkflowCatalog } from '@partner-task-kit/workflow';
import type { CheckedKitApp, KitApp } from './kit-app.ts';
import { checkKitVersions } from './kit-versions.ts';

type Command = (argv: string[], kit: CheckedKitApp) => Promise<number>;

/** Each loaded only when run: a command starts without the server's modules, and the server without the commands'. */
const commands: Record<string, () => Promise<Command>> = {
  migrate: async () => (await import('./cli/migrate.ts')).migrateCommand,
  doctor: async () => (await import('./cli/doctor.ts')).doctorCommand,
  tenants: async () => (await import('./cli/tenants.ts')).tenantsCommand,
  'partner-keys': async () => (await import('./cli/partner-keys.ts')).partnerKeysCommand,
  tasks: async () => (await import('./cli/tasks.ts')).tasksCommand,
  outbox: async () => (await import('./cli/outbox.ts')).outboxCommand,
};

/**
 * The app's one server entry (its server/main.ts) runs this with its arguments: none runs the server, a command name
 * runs that command (`npm run tenants -- list` is `main.ts tenants list`), each with the app's workflows and migrations. One entry,
 * so the built server (build/server/main.mjs) carries the commands too and an operator runs them in the container.
 */
export async function runKit(argv: readonly string[], kit: KitApp): Promise<void> {
  // Before anything runs, for a command too: an app whose flags this version does not know was written for another.
  const future = resolveFutureFlags(kit.future);
  // And its workflows: a folder whose definition has another id, or several workflows and no default, is a mistake in
  // the app that every command and the server would otherwise meet later, in a worker's task.
  let workflows: WorkflowCatalog;
  try {
    workflows = checkedWorkflows(kit);
  } catch (error) {
    if (!(error instanceof WorkflowCatalogError)) throw error;
    process.stderr.write(`Stopped before starting: ${error.message}\n`);
    process.exitCode = 1;
    return;
  }
  const { migrations, pageDirectory, extendApp } = kit;
  const checked: CheckedKitApp = {
    workflows,
    ...(kit.future === undefined ? {} : { future: kit.future }),
    ...(migrations === undefined ? {} : { migrations }),
    ...(pageDirectory === undefined ? {} : { pageDirectory }),
    ...(extendApp === undefined ? {} : { extendApp }),
  };
  const [command, ...commandArgs] = argv;
  if (command === undefined || command === 'serve') {
    // Before the server listens: on a mix of the kit's versions it would serve what no release was tested as
    // (docs/upgrading.md#one-version-of-the-kit). The app's root is the folder it is started from, as `npm start` does.
    const kitVersions = checkKitVersions(process.cwd(), readEnvironment());
    if (kitVersions.kind === 'refused') {
      process.stderr.write(`The server does not start. ${kitVersions.message}\n`);
      process.exitCode = 1;
      return;
    }
    if (kitVersions.kind === 'bypassed') process.stderr.write(`${kitVersions.warning}\n`);
    return (await import('./serve.ts')).serve(checked, future);
  }
  const load = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!load) {
    process.stderr.write(`Unknown command "${command}". Commands: serve (the default), ${Object.keys(commands).join(', ')}.\n`);
    process.exitCode = 2;
    return;
  }
  process.exitCode = await (await load())(commandArgs, checked);
}

/** The app's workflows as a catalog: the folders' list checked (docs/architecture.md#how-the-server-finds-them), or the catalog it built. */
function checkedWorkflows({ workflows, defaultWorkflow }: KitApp): WorkflowCatalog {
  if (!Array.isArray(workflows)) {
    const catalog = workflows as WorkflowCatalog;
    if (defaultWorkflow !== undefined && defaultWorkflow !== catalog.defaultId)
      throw new WorkflowCatalogError(
        `runKit's defaultWorkflow "${defaultWorkflow}" is not the default of the catalog it is given ("${catalog.defaultId}"): a catalog names its own (workflowCatalog's defaultWorkflow)`,
      );
    return catalog;
  }
  return folderCatalog(workflows, defaultWorkflow);
}
