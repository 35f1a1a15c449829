/**
 * Edits of the app's three registries (src/workflows/registry.ts, registry.views.ts, registry.server.ts) as text, so
 * their comments and layout stay as written: `npm run new-workflow` adds a workflow's lines, and the scaffolder's build
 * (packages/create-partner-task-kit) keeps only one workflow's. Each function refuses, with `RegistryShapeError`, a
 * registry whose shape it does not know rather than write a wrong one.
 */
export class RegistryShapeError extends Error {}

/** Where the object literal that `opening` starts has its entries: up to the `\n} satisfies` that ends it. */
function objectBody(source: string, file: string, opening: string): { start: number; end: number } {
  const found = source.indexOf(opening);
  const end = found === -1 ? -1 : source.indexOf('\n} satisfies', found);
  if (end === -1) throw new RegistryShapeError(`${file} has no "${opening} … } satisfies" to edit: edit it by hand.`);
  return { start: found + opening.length, end };
}

/** `source` with `entry` added as the last entry of the object literal that `opening` starts and `} satisfies` ends. */
export function withObjectEntry(source: string, file: string, opening: string, entry: string): string {
  const { start, end } = objectBody(source, file, opening);
  const body = source.slice(start, end).trimEnd();
  const separator = body === '' || body.endsWith(',') ? '' : ',';
  return `${source.slice(0, start)}${body}${separator}\n  ${entry},${source.slice(end)}`;
}

/** The key of a one-line entry (`  'sample-workflow': …` or `  sample: …`), without its quotes. */
function entryKey(line: string): string | undefined {
  return /^\s*'?([a-z][a-z0-9-]*)'?\s*:/.exec(line)?.[1];
}

/** `source` with only the entries of `ids` left in the object literal `opening` starts (one entry a line). */
function withOnlyEntries(source: string, file: string, opening: string, ids: readonly string[]): string {
  const { start, end } = objectBody(source, file, opening);
  const lines = source.slice(start, end).split('\n');
  const kept = lines.filter((line) => {
    const key = entryKey(line);
    return key === undefined ? line.trim() === '' : ids.includes(key);
  });
  if (kept.filter((line) => line.trim() !== '').length !== ids.length) {
    throw new RegistryShapeError(`${file}: "${opening}" does not have one line for each of ${ids.join(', ')}.`);
  }
  return `${source.slice(0, start)}${kept.join('\n')}${source.slice(end)}`;
}

/** `source` without the imports from a workflow folder other than `id`'s (`./<other>/…`). */
function withoutOtherWorkflowImports(source: string, id: string): string {
  return source.replace(/^import .* from '\.\/([a-z][a-z0-9-]*)\/[^']+';\n/gm, (line, folder: string) => (folder === id ? line : ''));
}

/** The three registries with one workflow, `id`, the default: what an app made with that example alone starts from. */
export function registriesWithOnly(id: string, sources: { registry: string; views: string; server: string }) {
  const definitionImport = new RegExp(`^import \\{ (\\w+) \\} from '\\./${id}/definition';$`, 'm').exec(sources.registry);
  if (!definitionImport) throw new RegistryShapeError(`src/workflows/registry.ts imports no definition from ./${id}/definition.`);
  let registry = withoutOtherWorkflowImports(sources.registry, id);
  registry = replaceOnce(registry, /const workflowIds = \[[^\]]*\] as const;/, `const workflowIds = ['${id}'] as const;`);
  registry = withOnlyEntries(registry, 'src/workflows/registry.ts', 'const workflows = {', [id]);
  registry = replaceOnce(registry, /(export const DEFAULT_WORKFLOW_ID: WorkflowId = )[^;]+;/, `$1${definitionImport[1]}.id;`);
  const prerendered = /(export const prerenderedWorkflows: readonly WorkflowId\[\] = )\[([^\]]*)\];/.exec(registry);
  if (prerendered) {
    const list = prerendered[2]!.includes(`'${id}'`) ? `['${id}']` : '[]';
    registry = registry.replace(prerendered[0], `${prerendered[1]}${list};`);
  }
  const views = withOnlyEntries(sources.views, 'src/workflows/registry.views.ts', 'const loaders = {', [id]);
  let server = withoutOtherWorkflowImports(sources.server, id);
  server = withOnlyEntries(server, 'src/workflows/registry.server.ts', 'const serverModules = {', [id]);
  return { registry, views, server };
}

function replaceOnce(source: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(source)) throw new RegistryShapeError(`src/workflows/registry.ts no longer matches ${pattern}.`);
  return source.replace(pattern, replacement);
}
