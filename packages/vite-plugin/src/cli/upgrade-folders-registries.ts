import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { WORKFLOWS_DIRECTORY } from '../workflow-folders.ts';
import { importsOf, nodesOfType, parseModule, SourceShapeError } from './source-edits.ts';

/**
 * What an app's three registries said, read from their syntax: the layout before a workflow was a folder, where
 * src/workflows/registry.ts listed the definitions and the default, registry.views.ts each workflow's step switch and
 * registry.server.ts each server half (docs/upgrading.md#a-workflow-is-a-folder).
 */
export const registryFiles = ['registry.ts', 'registry.views.ts', 'registry.server.ts'].map((name) => `${WORKFLOWS_DIRECTORY}/${name}`);

/** A module a registry imports from a workflow's folder: `./<folder>/<file>`, under the name `binding` it exports. */
export interface FolderImport {
  folder: string;
  /** From the app's root, with the extension the file has. */
  file: string;
  /** The name the module exports it by. */
  exported: string;
}

export interface Registries {
  definitions: FolderImport[];
  servers: FolderImport[];
  /** Each workflow folder's step switch, the module registry.views.ts loads. */
  switches: FolderImport[];
  /** How registry.ts names the default: a definition's `.id`, or the id itself. */
  defaultWorkflow: { definition: FolderImport } | { id: string } | undefined;
}

/** The file a relative import names from src/workflows/, with the extension it has on disk. */
function fileOf(root: string, specifier: string): string | undefined {
  const base = posix.join(WORKFLOWS_DIRECTORY, specifier);
  return ['', '.ts', '.tsx', '.js', '.jsx'].map((extension) => base + extension).find((file) => existsSync(join(root, file)));
}

function folderImport(root: string, registry: string, specifier: string, exported: string): FolderImport | undefined {
  const match = /^\.\/([^/]+)\/(.+)$/.exec(specifier);
  if (match === null) return undefined;
  const file = fileOf(root, specifier);
  if (file === undefined) throw new SourceShapeError(`${registry} imports ${specifier}, which is not there`);
  return { folder: match[1]!, file, exported };
}

function folderImports(root: string, registry: string, code: string): Map<string, FolderImport> {
  const found = new Map<string, FolderImport>();
  for (const [local, { source, imported }] of importsOf(parseModule(registry, code))) {
    const each = folderImport(root, registry, source, imported);
    if (each !== undefined) found.set(local, each);
  }
  return found;
}

export function readRegistries(root: string): Registries {
  const [registry, views, server] = registryFiles as [string, string, string];
  const read = (file: string) => (existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : '');
  const definitionsByName = folderImports(root, registry, read(registry));
  const servers = [...folderImports(root, server, read(server)).values()];
  const viewsCode = read(views);
  const switches = nodesOfType(parseModule(views, viewsCode), 'ImportExpression').flatMap((expression) => {
    const source = expression.source;
    if (source.type !== 'Literal' || typeof source.value !== 'string') return [];
    const each = folderImport(root, views, source.value, 'screens');
    return each === undefined ? [] : [each];
  });
  return {
    definitions: [...definitionsByName.values()],
    servers,
    switches,
    defaultWorkflow: defaultOf(registry, read(registry), definitionsByName),
  };
}

/** `export const DEFAULT_WORKFLOW_ID … = safetyTraining.id` or `= 'safety-training'`. */
function defaultOf(registry: string, code: string, definitions: Map<string, FolderImport>): Registries['defaultWorkflow'] {
  const declarator = nodesOfType(parseModule(registry, code), 'VariableDeclarator').find(
    (each) => each.id.type === 'Identifier' && each.id.name === 'DEFAULT_WORKFLOW_ID',
  );
  const value = declarator?.init;
  if (value == null) return undefined;
  if (value.type === 'Literal' && typeof value.value === 'string') return { id: value.value };
  if (value.type === 'MemberExpression' && value.object.type === 'Identifier' && !value.computed && value.property.name === 'id') {
    const definition = definitions.get(value.object.name);
    if (definition !== undefined) return { definition };
  }
  return undefined;
}
