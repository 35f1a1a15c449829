import type { ZodMiniType } from 'zod/mini';
import { maskValue, sensitivePaths } from '@partner-task-kit/workflow';
import type { SensitiveKeyRing } from './sensitive-keys.ts';
import { isSealed, type SealedValue } from './sensitive-values.ts';

/**
 * A step's data as it is stored: each sensitive field (packages/workflow/src/sensitive.ts) of `data`, as the step's schema
 * parsed it, replaced by its sealed form. Called once, when the step is accepted, before the data is saved.
 */
export async function sealStepData(keys: SensitiveKeyRing, schema: ZodMiniType, data: unknown): Promise<unknown> {
  let sealed = data;
  for (const path of sensitivePaths(schema)) {
    sealed = await replaceAt(sealed, path, async (value) => (typeof value === 'string' ? keys.seal(value) : value));
  }
  return sealed;
}

/** A step's data with each sensitive field masked ("••••89"): what its report, and so the platform, may see. */
export function maskStepData<T>(schema: ZodMiniType, data: T): T {
  let masked: unknown = data;
  for (const path of sensitivePaths(schema)) {
    masked = replaceAtSync(masked, path, (value) => (typeof value === 'string' ? maskValue(value) : value));
  }
  return masked as T;
}

/** Every sealed value in `value`, with its path (e.g. ['identity', 'idNumber']). */
export function sealedValuesIn(value: unknown, path: string[] = []): { path: string[]; sealed: SealedValue }[] {
  if (isSealed(value)) return [{ path, sealed: value }];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => sealedValuesIn(item, [...path, key]));
}

async function replaceAt(value: unknown, path: readonly string[], replace: (value: unknown) => Promise<unknown>): Promise<unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return replace(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, head)) return value;
  const record = value as Record<string, unknown>;
  return { ...record, [head]: await replaceAt(record[head], rest, replace) };
}

function replaceAtSync(value: unknown, path: readonly string[], replace: (value: unknown) => unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replace(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, head)) return value;
  const record = value as Record<string, unknown>;
  return { ...record, [head]: replaceAtSync(record[head], rest, replace) };
}
