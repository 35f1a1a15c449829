import { readFileSync } from 'node:fs';
import type { Plugin, Rolldown } from 'vite';

/**
 * The page's build imports each name of a kit entry (docs/public-api.md: @partner-task-kit/workflow/contract,
 * @partner-task-kit/page/screens, …) from the module that defines it, as if the importer had named that module. An
 * entry is a module of re-exports only; imported as it is, every module it re-exports would run where the first import
 * of it is: the modules the entry chunk uses and those of the shell's chunk alike, in the entry's order, and the
 * shell's chunk (shellChunk in index.ts) would count them the entry's. With each name from its own module the chunks,
 * their modules and their order are what they were when the kit's modules were imported by their paths (the page's
 * budget, packages/kit-tests/app-checks/page-build.test.ts, has a hundred bytes or so to spare).
 */
export function entryImports(): Plugin {
  const barrels = new Map<string, Promise<Map<string, Origin> | undefined>>();
  return {
    name: 'partner-task-kit:entry-imports',
    apply: 'build',
    enforce: 'pre',
    async transform(code, id) {
      if (!code.includes('@partner-task-kit/')) return null;
      const program = parseModule(this, code, id);
      if (program === undefined) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      for (const node of program.body) {
        const isImport = node.type === 'ImportDeclaration' && node.importKind !== 'type';
        const isReExport = node.type === 'ExportNamedDeclaration' && node.exportKind !== 'type' && node.source != null;
        if ((!isImport && !isReExport) || !node.source) continue;
        const source = String(node.source.value);
        if (!source.startsWith('@partner-task-kit/')) continue;
        const resolved = await this.resolve(source, id);
        if (resolved === null || resolved.external) continue;
        let barrel = barrels.get(resolved.id);
        if (barrel === undefined) {
          barrel = originsOf(this, resolved.id, new Set());
          barrels.set(resolved.id, barrel);
        }
        const origins = await barrel;
        if (origins === undefined) continue;
        // Each specifier as [the name the entry gives, the name it binds here, whether it is a type].
        const specifiers: [string, string, boolean][] = [];
        let whole = false;
        for (const specifier of node.specifiers) {
          if (specifier.type === 'ImportSpecifier')
            specifiers.push([nameOf(specifier.imported), specifier.local.name, specifier.importKind === 'type']);
          else if (specifier.type === 'ExportSpecifier')
            specifiers.push([nameOf(specifier.local), nameOf(specifier.exported), specifier.exportKind === 'type']);
          // A default or namespace import takes the entry whole.
          else whole = true;
        }
        if (whole || specifiers.length === 0) continue;
        const keyword = isImport ? 'import' : 'export';
        const moved: string[] = [];
        const kept: string[] = [];
        // A type is erased with its statement: it has no module to come from. Types alone (`import { type A }`) would
        // stay as `import 'entry'` under verbatimModuleSyntax, which runs the whole entry: the statement goes.
        for (const [given, bound] of specifiers.filter(([, , type]) => !type)) {
          const origin = origins.get(given);
          if (origin === undefined) kept.push(`${given} as ${bound}`);
          else moved.push(`${keyword} { ${origin.name} as ${bound} } from ${JSON.stringify(origin.file)};`);
        }
        if (moved.length === 0 && kept.length > 0) continue;
        const rest = kept.length > 0 ? [`${keyword} { ${kept.join(', ')} } from ${JSON.stringify(source)};`] : [];
        // On the lines the statement took, so the lines after it keep their numbers.
        const lines = code.slice(node.start, node.end).split('\n').length;
        edits.push({ start: node.start, end: node.end, text: [...moved, ...rest].join(' ') + '\n'.repeat(lines - 1) });
      }
      if (edits.length === 0) return null;
      let rewritten = code;
      for (const edit of edits.reverse()) rewritten = rewritten.slice(0, edit.start) + edit.text + rewritten.slice(edit.end);
      return { code: rewritten, map: null };
    },
  };
}

/** Where a name an entry exports is defined: the module's file, and its name there. */
interface Origin {
  file: string;
  name: string;
}

type Context = Pick<Rolldown.PluginContext, 'parse' | 'resolve'>;
type Program = ReturnType<Context['parse']>;

function parseModule(context: Context, code: string, id: string): Program | undefined {
  const path = id.split('?')[0] ?? id;
  const lang = path.endsWith('.tsx') ? 'tsx' : path.endsWith('.ts') ? 'ts' : /\.[cm]?js$/.test(path) ? 'js' : undefined;
  if (lang === undefined) return undefined;
  try {
    return context.parse(code, { lang });
  } catch {
    return undefined;
  }
}

/**
 * The origin of each name a module of re-exports alone gives (`export … from`, `export * from`, followed through
 * nested ones); undefined for any other module.
 */
async function originsOf(context: Context, file: string, seen: Set<string>): Promise<Map<string, Origin> | undefined> {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const program = readModule(context, file);
  if (program === undefined) return undefined;
  const origins = new Map<string, Origin>();
  for (const node of program.body) {
    if ((node.type !== 'ExportNamedDeclaration' && node.type !== 'ExportAllDeclaration') || !node.source) return undefined;
    if (node.exportKind === 'type') continue;
    const target = await context.resolve(String(node.source.value), file);
    if (target === null || target.external) return undefined;
    if (node.type === 'ExportAllDeclaration') {
      if (node.exported) return undefined;
      const nested = await originsOf(context, target.id, seen);
      const names = nested ?? exportedNames(context, target.id);
      if (names === undefined) return undefined;
      for (const [name, origin] of names) if (name !== 'default' && !origins.has(name)) origins.set(name, origin);
      continue;
    }
    const nested = await originsOf(context, target.id, seen);
    for (const specifier of node.specifiers) {
      if (specifier.exportKind === 'type') continue;
      const local = nameOf(specifier.local);
      origins.set(nameOf(specifier.exported), nested?.get(local) ?? { file: target.id, name: local });
    }
  }
  return origins;
}

/** The value names a module defines and exports itself; undefined when it re-exports too (resolved as a barrel). */
function exportedNames(context: Context, file: string): Map<string, Origin> | undefined {
  const program = readModule(context, file);
  if (program === undefined) return undefined;
  const names = new Map<string, Origin>();
  const add = (name: string) => names.set(name, { file, name });
  for (const node of program.body) {
    if (node.type === 'ExportAllDeclaration') return undefined;
    if (node.type !== 'ExportNamedDeclaration' || node.exportKind === 'type') continue;
    if (node.source) return undefined;
    const declaration = node.declaration;
    if (declaration?.type === 'VariableDeclaration') {
      for (const declarator of declaration.declarations) if (declarator.id.type === 'Identifier') add(declarator.id.name);
    } else if ((declaration?.type === 'FunctionDeclaration' || declaration?.type === 'ClassDeclaration') && declaration.id) {
      add(declaration.id.name);
    }
    for (const specifier of node.specifiers) if (specifier.exportKind !== 'type') add(nameOf(specifier.exported));
  }
  return names;
}

function readModule(context: Context, file: string): Program | undefined {
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parseModule(context, code, file);
}

function nameOf(node: { type: string; name?: string; value?: unknown }): string {
  return node.type === 'Identifier' ? String(node.name) : String(node.value);
}
