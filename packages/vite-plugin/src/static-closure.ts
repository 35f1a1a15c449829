import type { Rolldown } from 'vite';

/** What the closure reads of the build: the module graph, once it is known (buildEnd). */
type ModuleGraph = Pick<Rolldown.PluginContext, 'getModuleInfo' | 'parse' | 'resolve'>;

/** The names an import takes from a module, or every one (a namespace import, `export *`, a dynamic import()). */
type Names = ReadonlySet<string> | 'all';

/** One `import`/`export … from` statement of a module: the module it names, resolved, and what it takes of it. */
interface ImportEdge {
  target: string;
  names: Names;
}

/** A re-export of a barrel: every name of `target` (`export *`), or its `local` as `exported`. */
type ReExport = { target: string; star: true } | { target: string; star: false; exported: string; local: string };

/** A module that only re-exports others (`export … from`), so has no side effects of its own. */
interface Barrel {
  reExports: ReExport[];
}

/**
 * The modules `starts` run, following static imports, as the build will keep them: through a barrel, only the modules
 * that give the names imported from it. The kit's packages are used through such barrels (their named entries,
 * docs/public-api.md: @partner-task-kit/workflow/contract, @partner-task-kit/page/screens), and a module that imports
 * one name of the contract must not count as running every module of it: the build drops the others (side-effect-free
 * packages), and shellChunk would otherwise leave them out of the shell's chunk, each in a chunk of its own.
 */
export async function staticClosure(graph: ModuleGraph, starts: readonly string[]): Promise<Set<string>> {
  const edgesOf = moduleEdges(graph);
  const barrels = new Map<string, Promise<Barrel | undefined>>();
  const barrelOfModule = (id: string) => {
    let barrel = barrels.get(id);
    if (barrel === undefined) {
      barrel = barrelOf(graph, id);
      barrels.set(id, barrel);
    }
    return barrel;
  };
  const found = new Set<string>();
  /** The names already followed through each barrel. */
  const takenFromBarrel = new Map<string, Set<string> | 'all'>();

  const visit = async (id: string, names: Names): Promise<void> => {
    const barrel = await barrelOfModule(id);
    if (barrel === undefined) {
      if (found.has(id)) return;
      found.add(id);
      for (const edge of await edgesOf(id)) await visit(edge.target, edge.names);
      return;
    }
    found.add(id);
    const taken = takenFromBarrel.get(id) ?? new Set<string>();
    if (taken === 'all') return;
    const wanted = names === 'all' ? 'all' : new Set([...names].filter((name) => !taken.has(name)));
    if (wanted !== 'all' && wanted.size === 0) return;
    takenFromBarrel.set(id, wanted === 'all' ? 'all' : new Set([...taken, ...wanted]));
    for (const reExport of barrel.reExports) {
      if (reExport.star) {
        const needed = wanted === 'all' ? 'all' : (graph.getModuleInfo(reExport.target)?.exports ?? []).filter((name) => wanted.has(name));
        if (needed === 'all' || needed.length > 0) await visit(reExport.target, needed === 'all' ? 'all' : new Set(needed));
      } else if (wanted === 'all' || wanted.has(reExport.exported))
        await visit(reExport.target, reExport.local === '*' ? 'all' : new Set([reExport.local]));
    }
  };
  for (const start of starts) await visit(start, 'all');
  return found;
}

/** Each module's import statements, read once from its code. */
function moduleEdges(graph: ModuleGraph): (id: string) => Promise<ImportEdge[]> {
  const cache = new Map<string, Promise<ImportEdge[]>>();
  return (id) => {
    let edges = cache.get(id);
    if (edges === undefined) {
      edges = readEdges(graph, id);
      cache.set(id, edges);
    }
    return edges;
  };
}

async function readEdges(graph: ModuleGraph, id: string): Promise<ImportEdge[]> {
  const info = graph.getModuleInfo(id);
  const importedIds = info?.importedIds ?? [];
  const all = importedIds.map((target) => ({ target, names: 'all' as const }));
  // Without code (a virtual or external module) or with no import of ours to narrow, every import counts whole.
  if (!info?.code || importedIds.length === 0) return all;
  let program: ReturnType<ModuleGraph['parse']>;
  try {
    program = graph.parse(info.code, { lang: 'tsx' });
  } catch {
    return all;
  }
  const edges: ImportEdge[] = [];
  for (const node of program.body) {
    if (node.type !== 'ImportDeclaration' && node.type !== 'ExportNamedDeclaration' && node.type !== 'ExportAllDeclaration') continue;
    if (node.source === null || node.source === undefined) continue;
    const resolved = await graph.resolve(String(node.source.value), id);
    if (resolved === null || !importedIds.includes(resolved.id)) continue;
    edges.push({ target: resolved.id, names: namesOf(node) });
  }
  // An import the statements above do not account for (a plugin's) counts whole.
  const covered = new Set(edges.map((edge) => edge.target));
  return [...edges, ...all.filter((edge) => !covered.has(edge.target))];
}

type ImportStatement = Extract<
  ReturnType<ModuleGraph['parse']>['body'][number],
  { type: 'ImportDeclaration' | 'ExportNamedDeclaration' | 'ExportAllDeclaration' }
>;

function namesOf(node: ImportStatement): Names {
  if (node.type === 'ExportAllDeclaration') return 'all';
  const names = new Set<string>();
  for (const specifier of node.specifiers) {
    if (specifier.type === 'ImportNamespaceSpecifier') return 'all';
    if (specifier.type === 'ImportDefaultSpecifier') names.add('default');
    else {
      names.add(nameOf(specifier.type === 'ImportSpecifier' ? specifier.imported : specifier.local));
    }
  }
  return names;
}

/** The module as a barrel: side-effect free and made of `export … from` statements alone; undefined otherwise. */
async function barrelOf(graph: ModuleGraph, id: string): Promise<Barrel | undefined> {
  const info = graph.getModuleInfo(id);
  // Rolldown does not tell a module's side effects here (moduleSideEffects is null at buildEnd): a module of re-exports
  // alone has none of its own, and the kit's packages declare theirs (package.json sideEffects).
  if (!info?.code) return undefined;
  let program: ReturnType<ModuleGraph['parse']>;
  try {
    program = graph.parse(info.code, { lang: 'tsx' });
  } catch {
    return undefined;
  }
  const reExports: ReExport[] = [];
  for (const node of program.body) {
    if ((node.type !== 'ExportNamedDeclaration' && node.type !== 'ExportAllDeclaration') || !node.source) return undefined;
    const resolved = await graph.resolve(String(node.source.value), id);
    if (resolved === null) return undefined;
    if (node.type === 'ExportAllDeclaration') {
      // `export * as name from`: one name that holds them all.
      if (node.exported) reExports.push({ target: resolved.id, star: false, exported: nameOf(node.exported), local: '*' });
      else reExports.push({ target: resolved.id, star: true });
      continue;
    }
    for (const specifier of node.specifiers) {
      reExports.push({ target: resolved.id, star: false, exported: nameOf(specifier.exported), local: nameOf(specifier.local) });
    }
  }
  return { reExports };
}

function nameOf(node: { type: 'Identifier'; name: string } | { type: 'Literal'; value: unknown } | { type: string }): string {
  return 'name' in node ? node.name : 'value' in node ? String(node.value) : '';
}
