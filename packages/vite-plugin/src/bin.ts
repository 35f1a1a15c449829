#!/usr/bin/env node
/**
 * `partner-task-kit <command>`: the app's development commands, which its package.json scripts run in its folder
 * (README.md, "The partner-task-kit command"). One bin with subcommands rather than a bin each: one name in the app's
 * node_modules/.bin, unlikely to clash with another package's, and room for the next command without a new name.
 */
const commands: Record<string, { summary: string; run: (args: readonly string[]) => Promise<void> }> = {
  check: {
    summary: "check                            the workflows' folders against the convention, each definition loaded",
    run: async (args) => (await import('./cli/check.ts')).check(args),
  },
  'build-server': {
    summary: 'build-server                     server/main.ts bundled into build/server/main.mjs, its workflows inside',
    run: async (args) => (await import('./cli/build-server.ts')).buildServer(args),
  },
  dev: {
    summary: 'dev [--reset-emulator]           the page with hot reload on PORT (8787), the server behind it restarted on change',
    run: async (args) => (await import('./cli/dev.ts')).dev(args),
  },
  'new-workflow': {
    summary: 'new-workflow <id> [--branch]     a new workflow, the folder src/workflows/<id>/, with its test in tests/app/',
    run: async (args) => (await import('./cli/new-workflow.ts')).newWorkflow(args),
  },
  'upgrade-folders': {
    summary: 'upgrade-folders                  an app whose registries list its workflows moved to a folder each',
    run: async () => (await import('./cli/upgrade-folders.ts')).upgradeFolders(),
  },
  upgrade: {
    summary: 'upgrade <version> | --from <dir> every kit package to one version in one npm install, and what to read next',
    run: async (args) => (await import('./cli/upgrade.ts')).upgrade(args),
  },
};

const [name, ...args] = process.argv.slice(2);
const command = name === undefined ? undefined : commands[name];
if (command === undefined) {
  const known = Object.values(commands).map((each) => `  partner-task-kit ${each.summary}`);
  const help = name === undefined || name === '--help' || name === '-h';
  process[help ? 'stdout' : 'stderr'].write(
    `${help ? '' : `partner-task-kit: no command "${name}".\n`}Run in the app's folder:\n${known.join('\n')}\n`,
  );
  if (!help) process.exitCode = 1;
} else {
  await command.run(args);
}

// A module (its top-level await), though it exports nothing.
export {};
