import type { ZodMiniType } from 'zod/mini';
import { markSchema, schemaMark } from './schema-marks.ts';

/**
 * Fields whose value is sensitive (a national ID, a bank account): sealed at rest, masked to their last two
 * characters everywhere the worker's answers are shown or sent (docs/connecting-your-backend.md#sensitive-values).
 * The mark is kept on the schema (schema-marks.ts), so the server finds it by walking the step's schema, whichever copy
 * of this package made it.
 *
 * Marks a string field of a step's schema as sensitive: `nationalId: sensitive(z.string().check(...))`.
 */
export function sensitive<Schema extends ZodMiniType<string>>(schema: Schema): Schema {
  markSchema(schema, 'sensitive', true);
  return schema;
}

/** The paths of the sensitive fields in a schema's objects (nested objects included), e.g. [['nationalId']]. */
export function sensitivePaths(schema: ZodMiniType): string[][] {
  if (schemaMark(schema, 'sensitive')) return [[]];
  const def = (schema as unknown as { _zod: { def: { type: string; shape?: Record<string, ZodMiniType>; innerType?: ZodMiniType } } })._zod
    .def;
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') {
    return def.innerType ? sensitivePaths(def.innerType) : [];
  }
  if (def.type !== 'object' || def.shape === undefined) return [];
  return Object.entries(def.shape).flatMap(([key, field]) => sensitivePaths(field).map((path) => [key, ...path]));
}

/** "••••89": what is shown of a sensitive value wherever it is not revealed. */
export function maskValue(value: string): string {
  return `••••${value.slice(-2)}`;
}
