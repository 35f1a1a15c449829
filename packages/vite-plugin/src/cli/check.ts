import { randomUUID } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { loadWorkflowFolders, WorkflowFolderError, type LoadedWorkflowFolders } from '../workflow-folders.ts';

/**
 * `partner-task-kit check`, run in the app's folder before its type check (`npm run typecheck`): the app's workflow
 * folders against the convention (docs/architecture.md#a-workflow-is-a-folder), each definition loaded, as the page's
 * build and the server will read them. Prints every file to change and exits 1; prints the workflows found and exits 0.
 */
export async function check(args: readonly string[]): Promise<void> {
  if (args.length > 0) {
    process.stderr.write(`partner-task-kit check takes no arguments (it reads the app in its folder), not: ${args.join(' ')}\n`);
    process.exitCode = 2;
    return;
  }
  const root = process.cwd();
  const tsx = register({ namespace: `partner-task-kit-check-${randomUUID()}` });
  // A module that does not load (a syntax error, an import of nothing) is named with its error's first line: the type
  // check after this one says the rest, where a stack trace through tsx would say nothing of use.
  const load = (file: string): Promise<unknown> =>
    tsx.import(pathToFileURL(file).href, import.meta.url).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new WorkflowFolderError([`${relative(root, file).replaceAll('\\', '/')}: it does not load: ${reason}`]);
    });
  try {
    const { locales } = (await load(pageLocalesModule(root))) as { locales: readonly string[] };
    const loaded = await loadWorkflowFolders(root, locales, load);
    const problems = await serverHalfProblems(root, loaded, load);
    if (problems.length > 0) throw new WorkflowFolderError(problems);
    const ids = loaded.folders.map((folder) => folder.id);
    process.stdout.write(`${ids.length} workflow${ids.length === 1 ? '' : 's'} in src/workflows/: ${ids.join(', ')}\n`);
  } catch (error) {
    if (!(error instanceof WorkflowFolderError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  } finally {
    await tsx.unregister();
  }
}

/** Each server half whose default export is no module of graders: the server would refuse it at its start. */
async function serverHalfProblems(root: string, { folders }: LoadedWorkflowFolders, load: (file: string) => Promise<unknown>) {
  const problems: string[] = [];
  for (const folder of folders) {
    if (folder.server === undefined) continue;
    const half = ((await load(folder.server)) as { default?: unknown }).default;
    if (typeof half !== 'object' || half === null)
      problems.push(
        `${relative(root, folder.server).replaceAll('\\', '/')}: its default export is no server module (an object with its graders)`,
      );
  }
  return problems;
}

/**
 * The page package's list of the languages it speaks, as the app resolves the package: its sources in this repository,
 * its compiled dist/ in an app that installed it.
 */
function pageLocalesModule(root: string): string {
  const manifest = createRequire(join(root, 'package.json')).resolve('@partner-task-kit/page/package.json');
  const pagePackage = realpathSync(dirname(manifest));
  const source = join(pagePackage, 'src/ui/i18n/locale.ts');
  return existsSync(source) ? source : join(pagePackage, 'dist/ui/i18n/locale.js');
}
