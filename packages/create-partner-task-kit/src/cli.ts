#!/usr/bin/env node
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * `npm create partner-task-kit <dir>`: a new app in <dir>, on the kit's packages at this scaffolder's own version.
 * Everything it copies was written into template/ when the scaffolder was built (scripts/build-template.ts), from the
 * kit's own example app, so an app starts from what the kit's tests ran; nothing here edits source code.
 */
const templateDir = fileURLToPath(new URL('../template/', import.meta.url));
const ownVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

class RefusedError extends Error {}

interface AppPackageJson {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  partnerTaskKit?: { version: string };
}

function usage(examples: readonly string[]): string {
  return [
    'Usage: npm create partner-task-kit@latest <dir> [-- --workflow <id> | --examples all]',
    `  --workflow <id>   the example the app starts with (default ${examples[0]}): ${examples.join(', ')}`,
    '  --examples all    every example, as the kit itself runs them',
  ].join('\n');
}

function chosenExamples(examples: readonly string[], values: { workflow?: string; examples?: string }): readonly string[] {
  if (values.examples !== undefined && values.examples !== 'all' && values.examples !== 'one') {
    throw new RefusedError(`--examples takes "all" or "one", not "${values.examples}".\n${usage(examples)}`);
  }
  if (values.examples === 'all') {
    if (values.workflow !== undefined)
      throw new RefusedError('--workflow picks one example; --examples all takes every one: give one of them.');
    return examples;
  }
  const id = values.workflow ?? examples[0]!;
  if (!examples.includes(id)) throw new RefusedError(`No example workflow "${id}": choose one of ${examples.join(', ')}.`);
  return [id];
}

/**
 * The template's package.json with the app's name and each kit package it lists at exactly this version: the kit's
 * packages name each other so in their peerDependencies, and run at one version only (docs/upgrading.md#one-version-of-the-kit).
 */
function appPackageJson(name: string): AppPackageJson {
  const manifest = JSON.parse(readFileSync(join(templateDir, 'app/package.json'), 'utf8')) as AppPackageJson;
  for (const list of [manifest.dependencies, manifest.devDependencies]) {
    for (const dependency of Object.keys(list)) if (dependency.startsWith('@partner-task-kit/')) list[dependency] = ownVersion;
  }
  // Where the next upgrade starts (docs/upgrading.md#which-version-the-app-is-on).
  return { ...manifest, name, partnerTaskKit: { version: ownVersion } };
}

/** An npm package name from the folder's: lower case, and only the characters a name may hold. */
function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name === '' ? 'partner-task-app' : name;
}

function main(): void {
  const examples = JSON.parse(readFileSync(join(templateDir, 'examples.json'), 'utf8')) as string[];
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { workflow: { type: 'string' }, examples: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(`${usage(examples)}\n`);
    return;
  }
  if (positionals.length !== 1) throw new RefusedError(`Name the folder of the new app, once.\n${usage(examples)}`);
  const target = resolve(positionals[0]!);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new RefusedError(`${target} is not empty: choose a new folder, so nothing of yours is overwritten.`);
  }
  const chosen = chosenExamples(examples, values);
  // The server names the default workflow: the root's among every example, or the one example the app holds.
  const serverMain = chosen.length === 1 ? chosen[0]! : 'all';

  cpSync(join(templateDir, 'app'), target, { recursive: true });
  for (const id of chosen) {
    // The folder is the whole workflow: nothing lists it (docs/architecture.md#a-workflow-is-a-folder).
    cpSync(join(templateDir, 'workflows', id), join(target, 'src/workflows', id), { recursive: true });
    const tests = join(templateDir, 'tests', id);
    if (existsSync(tests)) cpSync(tests, join(target, 'tests/app'), { recursive: true });
  }
  cpSync(join(templateDir, 'server', serverMain, 'main.ts'), join(target, 'server/main.ts'));
  // npm leaves every .gitignore out of a package, so the template holds it under another name.
  renameSync(join(target, 'gitignore'), join(target, '.gitignore'));
  writeFileSync(join(target, 'package.json'), `${JSON.stringify(appPackageJson(packageName(target)), null, 2)}\n`);

  const where = relative(process.cwd(), target) || '.';
  process.stdout.write(`Made ${where} on partner-task-kit ${ownVersion}, with ${chosen.join(', ')}. Next:

  cd ${where}
  npm install && npm start   # the page and the server in emulator mode: open the preview address it prints
  npm test                   # type check, lint and the workflows' tests

README.md says what each file is for.
`);
}

try {
  main();
} catch (error) {
  if (!(error instanceof RefusedError)) throw error;
  process.stderr.write(`create-partner-task-kit: ${error.message}\n`);
  process.exitCode = 1;
}
