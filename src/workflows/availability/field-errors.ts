import type { ZodMiniType } from 'zod/mini';

/**
 * The fields of `candidate` that `schema` refuses, by the first key of each issue's path: the page checks a form with
 * the very schema the server will apply (DESIGN decision 1), and says what is wrong in the worker's language.
 */
export function invalidFields(schema: ZodMiniType, candidate: unknown): ReadonlySet<string> {
  const result = schema.safeParse(candidate);
  if (result.success) return new Set();
  return new Set(result.error.issues.map((issue) => String(issue.path[0] ?? '')));
}
