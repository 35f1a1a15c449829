import type { ZodMiniType } from 'zod/mini';
import type { StepRefusal } from './step-view-props.ts';

/**
 * The fields of `candidate` that `schema` refuses, by the first key of each issue's path: a screen checks its form
 * with the very schema the server will apply, and says what is wrong in the worker's language. Shared by every
 * workflow's screens (page code: a workflow folder imports nothing from another).
 */
export function invalidFields(schema: ZodMiniType, candidate: unknown): ReadonlySet<string> {
  const result = schema.safeParse(candidate);
  if (result.success) return new Set();
  return new Set(result.error.issues.map((issue) => String(issue.path[0] ?? '')));
}

/** Whether the server refused `field` of the step's data (400 invalid_step_data names it `data.<field>`). */
export function refused(refusal: StepRefusal | undefined, field: string): boolean {
  return refusal?.field === `data.${field}`;
}
