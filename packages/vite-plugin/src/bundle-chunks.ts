import { normalizePath, type Rolldown } from 'vite';

/** The module's id as the build's paths are written: forward slashes. */
export function moduleId(id: string | null | undefined): string {
  return normalizePath(id ?? '');
}

/** Whether the chunk holds the module (a chunk of the shell has no facade module). */
export function holds(chunk: Rolldown.OutputChunk, id: string): boolean {
  return chunk.moduleIds.some((each) => moduleId(each) === id);
}

/**
 * The chunks `wanted` picks and every chunk they import statically, followed transitively: a page preloads them all,
 * as otherwise those are found only when the chunk itself has arrived, one more round trip.
 */
export function chunksWithImports(bundle: Rolldown.OutputBundle, wanted: (chunk: Rolldown.OutputChunk) => boolean): string[] {
  const files = new Set<string>();
  const add = (fileName: string) => {
    const chunk = bundle[fileName];
    if (files.has(fileName) || chunk?.type !== 'chunk') return;
    files.add(fileName);
    for (const imported of chunk.imports) add(imported);
  };
  for (const item of Object.values(bundle)) {
    if (item.type === 'chunk' && wanted(item)) add(item.fileName);
  }
  return [...files];
}

/** The chunk whose facade (the module it was made for) is `id`, with the chunks it imports statically. */
export function chunkOfModule(bundle: Rolldown.OutputBundle, id: string | undefined): string[] {
  return id === undefined ? [] : chunksWithImports(bundle, (chunk) => moduleId(chunk.facadeModuleId) === id);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
