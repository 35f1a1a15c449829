import { parseSync, type ESTree } from 'vite';

/**
 * The app's modules read as syntax, never by pattern, and edited by the ranges of their nodes, so their comments and
 * layout stay as written: what `partner-task-kit move-to-folders` rewrites, and what create-partner-task-kit's build
 * reads of the app (its default workflow). Parsed by the parser Vite builds the page with.
 */
export class SourceShapeError extends Error {}

export function parseModule(file: string, code: string): ESTree.Program {
  const parsed = parseSync(file, code, { lang: file.endsWith('x') ? 'tsx' : 'ts', sourceType: 'module' });
  if (parsed.errors.length > 0) throw new SourceShapeError(`${file}: ${parsed.errors.map((error) => error.message).join('; ')}`);
  return parsed.program;
}

type AnyNode = ESTree.Node & { type: string };

/** Every node under `root`, depth first, in source order. */
export function* nodesOf(root: unknown): Generator<AnyNode> {
  if (Array.isArray(root)) {
    for (const each of root) yield* nodesOf(each);
    return;
  }
  if (typeof root !== 'object' || root === null || typeof (root as { type?: unknown }).type !== 'string') return;
  yield root as AnyNode;
  for (const [key, value] of Object.entries(root)) if (key !== 'parent' && typeof value === 'object') yield* nodesOf(value);
}

/** The nodes of one type under `root`. */
export function nodesOfType<Type extends AnyNode['type']>(root: unknown, type: Type): Extract<AnyNode, { type: Type }>[] {
  return [...nodesOf(root)].filter((node): node is Extract<AnyNode, { type: Type }> => node.type === type);
}

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `code` with each edit's range replaced by its text; the ranges must not overlap. */
export function applyEdits(code: string, edits: readonly Edit[]): string {
  let result = code;
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** The name of a property's key when it is written as a plain name or a string (`workflows`, `'safety-training'`). */
export function keyName(property: ESTree.ObjectProperty): string | undefined {
  if (property.computed) return undefined;
  const key = property.key as AnyNode;
  if (key.type === 'Identifier') return (key as ESTree.IdentifierName).name;
  if (key.type === 'Literal' && typeof (key as ESTree.StringLiteral).value === 'string') return (key as ESTree.StringLiteral).value;
  return undefined;
}

/** The object literal given to the first call of `callee` (`runKit(argv, { … })`, `partnerTaskKit({ … })`). */
export function optionsOfCall(program: ESTree.Program, callee: string): ESTree.ObjectExpression | undefined {
  for (const call of nodesOfType(program, 'CallExpression')) {
    const name = call.callee.type === 'Identifier' ? call.callee.name : undefined;
    if (name !== callee) continue;
    return call.arguments.find((argument): argument is ESTree.ObjectExpression => argument.type === 'ObjectExpression');
  }
  return undefined;
}

/** The property `name` of `object`, written `name: value` or `name`. */
export function propertyOf(object: ESTree.ObjectExpression, name: string): ESTree.ObjectProperty | undefined {
  return object.properties.find(
    (property): property is ESTree.ObjectProperty => property.type === 'Property' && keyName(property) === name,
  );
}

/**
 * The workflow the app's server names its default (`defaultWorkflow: '<id>'` given to runKit in server/main.ts,
 * docs/architecture.md#a-workflow-is-a-folder); undefined when it names none, as an app of one workflow may.
 */
export function defaultWorkflowOf(file: string, code: string): { id: string; edit: (id: string) => string } | undefined {
  const options = optionsOfCall(parseModule(file, code), 'runKit');
  const property = options === undefined ? undefined : propertyOf(options, 'defaultWorkflow');
  if (property === undefined) return undefined;
  const value = property.value as AnyNode;
  if (value.type !== 'Literal' || typeof (value as ESTree.StringLiteral).value !== 'string') {
    throw new SourceShapeError(`${file}: defaultWorkflow is not written as a string, such as 'contact-details'`);
  }
  return {
    id: (value as ESTree.StringLiteral).value,
    edit: (id) => applyEdits(code, [{ start: value.start, end: value.end, text: `'${id}'` }]),
  };
}

/** The name an import or export specifier names (`x` of `{ x }`, `'x'` of `{ 'x' as y }`). */
function exportName(name: ESTree.ModuleExportName): string {
  return name.type === 'Literal' ? name.value : name.name;
}

/** Each binding a module's static imports make, by its local name: the module it comes from and the name it has there. */
export function importsOf(program: ESTree.Program): Map<string, { source: string; imported: string }> {
  const bindings = new Map<string, { source: string; imported: string }>();
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || statement.importKind === 'type') continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type === 'ImportSpecifier' && specifier.importKind === 'type') continue;
      const imported =
        specifier.type === 'ImportSpecifier'
          ? exportName(specifier.imported)
          : specifier.type === 'ImportDefaultSpecifier'
            ? 'default'
            : '*';
      bindings.set(specifier.local.name, { source: statement.source.value, imported });
    }
  }
  return bindings;
}

/** Whether a module has a default export, declared (`export default …`) or named (`export { x as default }`). */
export function hasDefaultExport(program: ESTree.Program): boolean {
  return program.body.some(
    (statement) =>
      statement.type === 'ExportDefaultDeclaration' ||
      (statement.type === 'ExportNamedDeclaration' &&
        statement.specifiers.some((specifier) => exportName(specifier.exported) === 'default')),
  );
}

/** The names a module exports as values, declared in it (`export const x`, `export function x`). */
export function declaredExports(program: ESTree.Program): string[] {
  return program.body.flatMap((statement) => {
    if (statement.type !== 'ExportNamedDeclaration' || statement.declaration === null) return [];
    const declaration = statement.declaration;
    if (declaration.type === 'VariableDeclaration')
      return declaration.declarations.flatMap((each) => (each.id.type === 'Identifier' ? [each.id.name] : []));
    if ((declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration') && declaration.id)
      return [declaration.id.name];
    return [];
  });
}

/** `code` with `export default <name>;` at its end. */
export function withDefaultExport(code: string, name: string): string {
  return `${code.trimEnd()}\n\nexport default ${name};\n`;
}
