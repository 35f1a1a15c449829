import { safeParse } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import type { TaskApiErrorCode } from '../../src/contract/error-body';
import { taskError } from '../api-error';

/** Validates input with a contract schema; the first problem becomes a 400 naming the field (DESIGN error body). */
export function parseInput<T>(schema: $ZodType<T>, input: unknown, code: TaskApiErrorCode, root = 'body'): T {
  const parsed = safeParse(schema, input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.join('.') : root;
  const detail = issue?.code === 'unrecognized_keys' ? `has unexpected fields: ${issue.keys.join(', ')}` : (issue?.message ?? 'is invalid');
  throw taskError(code, `${path} ${detail}`.slice(0, 300), path);
}
