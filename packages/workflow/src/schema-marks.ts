import type { ZodMiniType } from 'zod/mini';

/**
 * What the kit marks on a step's field schema: a sensitive value, a file field's rule. A mark is kept on the schema
 * object itself, under a symbol of the runtime's global registry (`Symbol.for`), so it travels with the schema: two
 * copies of this package in one app (a partial upgrade, a duplicate under another package's node_modules) read each
 * other's marks. Kept in a module's own WeakSet, a mark made by one copy was unseen by the other, and a sensitive field
 * was stored and sent in clear. Not a zod registry either: zod's registries are module state as well, and one made the
 * page's bundler split React out of the entry chunk (BENCHMARKS.md, first-screen JavaScript).
 */
const marks = {
  sensitive: Symbol.for('@partner-task-kit/workflow:sensitive'),
  fileRule: Symbol.for('@partner-task-kit/workflow:file-rule'),
} as const;

interface MarkValues {
  sensitive: true;
  fileRule: { types: readonly string[]; maxBytes: number };
}

export function markSchema<Kind extends keyof MarkValues>(schema: ZodMiniType, kind: Kind, value: MarkValues[Kind]): void {
  // Not enumerable: a schema's own keys stay zod's.
  Object.defineProperty(schema, marks[kind], { value, enumerable: false, configurable: true });
}

export function schemaMark<Kind extends keyof MarkValues>(schema: ZodMiniType, kind: Kind): MarkValues[Kind] | undefined {
  return (schema as unknown as Record<symbol, MarkValues[Kind] | undefined>)[marks[kind]];
}
