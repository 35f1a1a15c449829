import type { ESTree } from 'vite';
import { applyEdits, importsOf, nodesOfType, optionsOfCall, parseModule, propertyOf, SourceShapeError, type Edit } from './source-edits.ts';

/**
 * The app's entries and configuration moved off the registries (docs/upgrading.md#a-workflow-is-a-folder), each edit
 * on the syntax of what the kit's template wrote, the rest of the file as the partner left it. A file in another
 * shape is refused with SourceShapeError, naming it, for the partner to edit.
 */
const screensModule = 'virtual:partner-task-kit/screens';
const workflowsModule = 'virtual:partner-task-kit/workflows';
const registerHook = '@partner-task-kit/vite-plugin/register';
export const clientTypes = '@partner-task-kit/vite-plugin/client';

const isRegistry = (specifier: string, name: string) => new RegExp(`(^|/)${name.replace('.', '\\.')}(\\.[jt]sx?)?$`).test(specifier);

/** src/main.tsx: the page's table of screens from the build's module instead of registry.views.ts. */
export function withScreensModule(file: string, code: string): string {
  const sources = nodesOfType(parseModule(file, code), 'ImportExpression')
    .map((expression) => expression.source)
    .filter((source): source is ESTree.StringLiteral => source.type === 'Literal' && isRegistry(String(source.value), 'registry.views'));
  if (sources.length !== 1) throw new SourceShapeError(`${file}: no import() of src/workflows/registry.views to replace`);
  return applyEdits(code, [{ start: sources[0]!.start, end: sources[0]!.end, text: `'${screensModule}'` }]);
}

/**
 * server/main.ts: runKit given the workflows the folders hold and, among several, the default by its id. The import
 * of registry.server.ts becomes that of the build's module, and the option that named its export names this one.
 */
export function withWorkflowsModule(file: string, code: string, defaultWorkflow: string | undefined): string {
  const program = parseModule(file, code);
  const declaration = program.body.find(
    (statement): statement is ESTree.ImportDeclaration =>
      statement.type === 'ImportDeclaration' && isRegistry(statement.source.value, 'registry.server'),
  );
  const local = [...importsOf(program)].find(([, each]) => isRegistry(each.source, 'registry.server'))?.[0];
  const options = optionsOfCall(program, 'runKit');
  const property = options === undefined ? undefined : propertyOf(options, 'workflows');
  if (
    declaration === undefined ||
    local === undefined ||
    property === undefined ||
    property.value.type !== 'Identifier' ||
    property.value.name !== local
  ) {
    throw new SourceShapeError(`${file}: no runKit(…, { workflows: <the export of src/workflows/registry.server> }) to replace`);
  }
  const edits: Edit[] = [
    { start: declaration.start, end: declaration.end, text: `import workflows from '${workflowsModule}';` },
    {
      start: property.start,
      end: property.end,
      text: defaultWorkflow === undefined ? 'workflows' : `workflows, defaultWorkflow: '${defaultWorkflow}'`,
    },
  ];
  return applyEdits(code, edits);
}

/** The range of `node` widened to whole lines when it has its lines alone, with the comma after it. */
function lineRange(code: string, node: { start: number; end: number }): { start: number; end: number } {
  let end = node.end;
  const comma = /^\s*,/.exec(code.slice(end));
  if (comma) end += comma[0].length;
  const lineStart = code.lastIndexOf('\n', node.start - 1) + 1;
  const lineEnd = code.indexOf('\n', end);
  const before = code.slice(lineStart, node.start);
  const after = code.slice(end, lineEnd === -1 ? code.length : lineEnd);
  if (before.trim() === '' && after.trim() === '') return { start: lineStart, end: lineEnd === -1 ? code.length : lineEnd + 1 };
  return { start: node.start, end: after.trim() === '' ? end : end + (/^\s*/.exec(after)?.[0].length ?? 0) };
}

/** vite.config.ts: partnerTaskKit() without `workflows` and `views`, the files the build now finds by itself. */
export function withoutRegistryOptions(file: string, code: string): string {
  const options = optionsOfCall(parseModule(file, code), 'partnerTaskKit');
  if (options === undefined) return code;
  const removed = ['workflows', 'views'].flatMap((name) => {
    const property = propertyOf(options, name);
    return property === undefined ? [] : [{ ...lineRange(code, property), text: '' }];
  });
  return applyEdits(code, removed);
}

/**
 * package.json's scripts: the server's commands with the register hook (it resolves the workflows' module), the
 * server's bundle by `partner-task-kit build-server`, and `partner-task-kit check` before the type check.
 */
export function withFolderScripts(scripts: Readonly<Record<string, string>>): Record<string, string> {
  const next: Record<string, string> = {};
  for (const [name, script] of Object.entries(scripts)) {
    const original = script.split(/\s*&&\s*/);
    const commands = original.map((command) =>
      command
        .replace(/--import(?:=|\s+)tsx(\s+server\/main\.ts\b)/, `--import ${registerHook}$1`)
        .replace(/^esbuild\s+server\/main\.ts\b.*$/, 'partner-task-kit build-server'),
    );
    const firstTsc = commands.findIndex((command) => /^tsc(\s|$)/.test(command));
    if (firstTsc !== -1 && !commands.includes('partner-task-kit check')) commands.splice(firstTsc, 0, 'partner-task-kit check');
    // A script with nothing to change keeps its own spacing.
    next[name] = commands.join('\0') === original.join('\0') ? script : commands.join(' && ');
  }
  return next;
}

/**
 * A tsconfig's `types` with the declarations of the build's modules (JSON with comments, edited as text so the
 * comments stay); undefined when it has no `types` list, which the partner then writes.
 */
export function withClientTypes(code: string): string | undefined {
  const list = /("types"\s*:\s*\[)([^\]]*)\]/.exec(code);
  if (list === null) return undefined;
  if (list[2]!.includes(`"${clientTypes}"`)) return code;
  const entries = list[2]!.trim();
  const inserted = entries === '' ? `"${clientTypes}"` : `${entries.replace(/,\s*$/, '')}, "${clientTypes}"`;
  return code.slice(0, list.index) + list[1] + inserted + ']' + code.slice(list.index + list[0].length);
}
