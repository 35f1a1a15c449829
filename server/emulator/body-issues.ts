import type { z } from 'zod';
import { EmulatorError, type FieldIssue } from './emulator-error';

/**
 * Turns zod issues into field-named issues, so a 400 says which field is wrong (e.g. "partnerStatus.label"), never
 * its value. An unknown key is named by its own path; a missing value reads "is required".
 */
export function fieldIssues(issues: readonly z.core.$ZodIssue[], input: unknown): FieldIssue[] {
  const result: FieldIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) result.push({ path: joinPath([...issue.path, key]), message: 'is not a known field' });
      continue;
    }
    const missing = issue.path.length > 0 && valueAt(input, issue.path) === undefined;
    result.push({ path: joinPath(issue.path), message: missing ? 'is required' : issue.message });
  }
  return result;
}

/** A 400 naming the first wrong field in `message` and `field`, with every issue listed. */
export function invalidBodyError(error: z.ZodError, input: unknown, code = 'invalid_body'): EmulatorError {
  const issues = fieldIssues(error.issues, input);
  const first = issues[0] ?? { path: 'body', message: 'is invalid' };
  return new EmulatorError(400, code, `${first.path}: ${first.message}`, { field: first.path, issues });
}

/** `partnerStatus.label`, `items[2].name`; the body itself is named `body`. */
function joinPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : String(part))).join('.').replaceAll('.[', '[');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}
