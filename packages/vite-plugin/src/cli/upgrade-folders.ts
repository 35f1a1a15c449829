import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { WORKFLOWS_DIRECTORY } from '../workflow-folders.ts';
import { SourceShapeError } from './source-edits.ts';
import { planFolderMove, type FolderMove } from './upgrade-folders-plan.ts';

/**
 * `partner-task-kit upgrade-folders`, run in the app's folder once its kit is on a release where a workflow is a
 * folder (docs/upgrading.md#a-workflow-is-a-folder): the registries go, each workflow's folder takes the convention as
 * far as that is mechanical, the entries and scripts take the build's modules; then `partner-task-kit check` says what
 * is left, and this command lists the files the partner writes. Everything is read and planned before anything is
 * written: a file it cannot read leaves the tree as it was.
 */
const root = process.cwd();

function report(move: FolderMove): string {
  const lines = [
    'partner-task-kit upgrade-folders: each workflow is its folder now',
    ...move.done.map((line) => `  ${line}`),
    ...move.deletes.map((file) => `  deleted ${file}`),
  ];
  if (move.left.length > 0) lines.push('', 'Left to you:', ...move.left.map((line) => `  ${line}`));
  lines.push('', 'Then: npm run typecheck (partner-task-kit check names any folder still off the convention), npm test, git add -A');
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  if (!existsSync(join(root, 'package.json'))) throw new SourceShapeError("no package.json here: run it in the app's folder.");
  if (!existsSync(join(root, WORKFLOWS_DIRECTORY, 'registry.ts'))) {
    process.stdout.write(
      `partner-task-kit upgrade-folders: no ${WORKFLOWS_DIRECTORY}/registry.ts, so the workflows are folders already; nothing to do.\n`,
    );
    return;
  }
  // The definitions are loaded for their ids and steps, through tsx as the kit's other commands load them.
  const tsx = register({ namespace: `partner-task-kit-upgrade-${process.pid}` });
  const load = (file: string) => tsx.import(pathToFileURL(file).href, import.meta.url) as Promise<Record<string, unknown>>;
  const move = await planFolderMove(root, load);
  await tsx.unregister();
  for (const [file, text] of move.writes) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  for (const file of move.deletes) rmSync(join(root, file), { force: true });
  process.stdout.write(report(move));
  // The same bin's check, which reads the folders as the build and the server do.
  const check = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, 'check'], { cwd: root, stdio: 'inherit' });
  if (check.status !== 0) process.exitCode = 1;
}

export async function upgradeFolders(): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (!(error instanceof SourceShapeError)) throw error;
    process.stderr.write(`partner-task-kit upgrade-folders: ${error.message}\nNothing was changed.\n`);
    process.exitCode = 1;
  }
}
