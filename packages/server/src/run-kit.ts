import { readEnvironment } from './config.ts';
import { resolveFutureFlags } from './future-flags.ts';
import type { KitApp } from './kit-app.ts';
import { checkKitVersions } from './kit-versions.ts';

type Command = (argv: string[], kit: KitApp) => Promise<number>;

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
  const [command, ...rest] = argv;
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
    return (await import('./serve.ts')).serve(kit, future);
  }
  const load = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!load) {
    process.stderr.write(`Unknown command "${command}". Commands: serve (the default), ${Object.keys(commands).join(', ')}.\n`);
    process.exitCode = 2;
    return;
  }
  process.exitCode = await (await load())(rest, kit);
}
