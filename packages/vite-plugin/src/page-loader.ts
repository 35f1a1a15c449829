import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { register as registerModuleHooks } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

/**
 * The page's stylesheets, which its modules import (file-field.tsx), are Vite's to bundle; in the prerender, which runs
 * the page's modules in Node, each is an empty module. A screen takes its parts from @partner-task-kit/page/screens,
 * which Node loads whole, the file field with its stylesheet too. Once per process: the hook serves every later load.
 */
let stylesheetsHooked = false;
function emptyStylesheetsInNode(): void {
  if (stylesheetsHooked) return;
  stylesheetsHooked = true;
  const hooks = `export async function load(url, context, next) {
    return /\\.css([?#].*)?$/.test(url) ? { format: 'module', source: '', shortCircuit: true } : next(url, context);
  }`;
  registerModuleHooks(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

/** Loads a module of the app or of the engine by its file, in Node. */
export type LoadPageModule = (file: string) => Promise<unknown>;

/**
 * The app's page modules (its workflows' definitions, screens and texts) and the engine's prerender, loaded in Node
 * through tsx with the page's tsconfig (its JSX setting, its paths): they are page modules, not part of Vite's
 * configuration. By default tsconfig.page.json at the root where there is one, else tsconfig.json. One tsx namespace
 * per build for all, so the screens share the prerender's React and its contexts (a tsImport each would load each its
 * own copy of every module).
 */
export function pageModuleLoader(root: string, tsconfigOption: string | undefined): LoadPageModule {
  const pageTsconfig = join(root, 'tsconfig.page.json');
  const tsconfig = tsconfigOption ? resolve(root, tsconfigOption) : existsSync(pageTsconfig) ? pageTsconfig : join(root, 'tsconfig.json');
  emptyStylesheetsInNode();
  const tsx = register({ namespace: `partner-task-kit-page-${randomUUID()}`, tsconfig });
  return (file) => tsx.import(pathToFileURL(file).href, import.meta.url);
}
