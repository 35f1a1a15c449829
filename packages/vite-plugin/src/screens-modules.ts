import type { WorkflowFolder } from './workflow-folders.ts';

/**
 * The app's table of its workflows' screens, which its entry hands the page (src/main.tsx:
 * `mountTaskPage(root, () => import('virtual:partner-task-kit/screens'), shellTexts)`): each workflow's module of
 * screens by the workflow's id, a dynamic import() each (docs/architecture.md#a-workflow-is-a-folder). These ids keep
 * their own names, without the \0 of a virtual module, as the preview's does (preview-module.ts): the bundler orders
 * the chunks' shared modules by their entries' names, and ids that sort before the app's own would reorder the shell's
 * chunk every page loads first.
 */
export const SCREENS_TABLE = 'virtual:partner-task-kit/screens';

/** The module of one workflow's screens, which exports `screens` (packages/page/src/workflows/folder-screens.tsx). */
export function workflowScreensModule(workflowId: string): string {
  return `${SCREENS_TABLE}/${workflowId}`;
}

/** The workflow id of a module of screens, or undefined for any other module. */
export function workflowOfScreensModule(id: string): string | undefined {
  return id.startsWith(`${SCREENS_TABLE}/`) ? id.slice(SCREENS_TABLE.length + 1) : undefined;
}

const lazyImport = (file: string) => `() => import(${JSON.stringify(file)})`;

/** The table's source: `screenLoaders` alone, as the page loads every export of it. */
export function screensTableSource(folders: readonly WorkflowFolder[]): string {
  const lines = folders.map((folder) => `  ${JSON.stringify(folder.id)}: ${lazyImport(workflowScreensModule(folder.id))},`);
  return `export const screenLoaders = {\n${lines.join('\n')}\n};\n`;
}

/**
 * One workflow's module of screens: each step's screen, each language's texts and each end screen a dynamic import(),
 * so each is a chunk of its own, which the page fetches when it needs it (folderScreens); the first step's screen
 * (`firstStep`, when the definition is known) is imported with the module instead, into its chunk: every link's first
 * page of the workflow needs both, and one file weighs less than two within its budget (docs/development.md#benchmarks).
 * `folderScreensFile` is the page package's module of folderScreens by its path, the very module the shell imports:
 * named by the package's entry, a module outside the app's folders would resolve it apart from the app's tsconfig
 * paths, to a second copy.
 */
export function workflowScreensSource(folder: WorkflowFolder, folderScreensFile: string, firstStep?: string): string {
  const first = firstStep === undefined ? undefined : folder.steps.get(firstStep);
  const entries = (files: ReadonlyMap<string, string>) =>
    [...files]
      .map(([key, file]) => `    ${JSON.stringify(key)}: ${file === first ? '() => Promise.resolve(firstStep)' : lazyImport(file)},`)
      .join('\n');
  const parts = [`  steps: {\n${entries(folder.steps)}\n  },`];
  if (folder.texts.size > 0) parts.push(`  texts: {\n${entries(folder.texts)}\n  },`);
  if (folder.done !== undefined) parts.push(`  done: ${lazyImport(folder.done)},`);
  if (folder.failed !== undefined) parts.push(`  failed: ${lazyImport(folder.failed)},`);
  return [
    `import { folderScreens } from ${JSON.stringify(folderScreensFile)};`,
    ...(first === undefined ? [] : [`import * as firstStep from ${JSON.stringify(first)};`]),
    '',
    `export const screens = folderScreens({\n${parts.join('\n')}\n});`,
    '',
  ].join('\n');
}
