import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// `partner-task-kit upgrade`, onto a kit whose packages export named entries only (docs/public-api.md): the app's
// imports of the deep paths the packages exported before are rewritten to the entry that holds them now, so the
// upgrade stays a change of versions. A deep path no entry holds (the server's internals) is left for the app's type
// check and lint to name.

/** The entry that holds what a deep path of the packages before their named entries exported; undefined: none. */
function entryOf(specifier: string): string | undefined {
  const match = /^@partner-task-kit\/(workflow|page|server)\/(.+)$/.exec(specifier);
  if (match === null) return undefined;
  const [, name, path] = match as unknown as [string, string, string];
  if (name === 'workflow') {
    if (path === 'contract' || path === 'package.json') return undefined;
    return path.startsWith('contract/') ? '@partner-task-kit/workflow/contract' : '@partner-task-kit/workflow';
  }
  if (name === 'page') {
    if (path === 'workflows/workflow-views' || path === 'ui/i18n/shell-text-overrides') return '@partner-task-kit/page';
    return /^(ui|workflows|task|api)\//.test(path) ? '@partner-task-kit/page/screens' : undefined;
  }
  return path === 'task-progress/status-updates' ? '@partner-task-kit/server' : undefined;
}

/** `code` with each static import, re-export and import() of a deep path naming its entry instead. */
function withEntryImports(code: string): string {
  return code.replace(
    /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(@partner-task-kit\/[^'"]+)\2/g,
    (whole, before: string, quote: string, specifier: string) => {
      const entry = entryOf(specifier);
      return entry === undefined ? whole : `${before}${quote}${entry}${quote}`;
    },
  );
}

/** Rewrites the app's modules (src/, server/, tests/) in place; returns the files it changed, from `root`. */
export function rewriteAppImports(root: string): string[] {
  const changed: string[] = [];
  const visit = (folder: string) => {
    if (!existsSync(join(root, folder))) return;
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const file = `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') visit(file);
      } else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name)) {
        const code = readFileSync(join(root, file), 'utf8');
        const rewritten = withEntryImports(code);
        if (rewritten !== code) {
          writeFileSync(join(root, file), rewritten);
          changed.push(file);
        }
      }
    }
  };
  for (const folder of ['src', 'server', 'tests']) visit(folder);
  return changed;
}

/** Whether the installed kit has the named entries (its page exports ./screens). */
export function kitHasNamedEntries(root: string): boolean {
  const manifest = join(root, 'node_modules/@partner-task-kit/page/package.json');
  if (!existsSync(manifest)) return false;
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> };
  return exports?.['./screens'] !== undefined;
}
