import { z } from 'zod/mini';
import { contextUuidField } from './contract-fields.ts';

/** docs/platform.md#task-context: the four parameters the portal appends to the iframe URL, all UUID strings, unsigned. */
export const contextParamNames = ['wxWorkerUuid', 'wxAssignedTaskUuid', 'wxTaskFlowUuid', 'wxCompanyUuid'] as const;
export type ContextParamName = (typeof contextParamNames)[number];

export const taskContextSchema = z.strictObject({
  wxWorkerUuid: contextUuidField,
  wxAssignedTaskUuid: contextUuidField,
  wxTaskFlowUuid: contextUuidField,
  wxCompanyUuid: contextUuidField,
});
export type TaskContext = z.infer<typeof taskContextSchema>;

/**
 * The one form in which context ids are compared and looked up: RFC 9562 makes UUIDs case-insensitive, so `1E6F…` and
 * `1e6f…` name one task and meet one binding. The id sent to the platform stays as first received (docs/platform.md#the-update-endpoint).
 */
export function canonicalUuid(value: string): string {
  return value.toLowerCase();
}

/** The same context, whatever the letter case of its ids. */
export function isSameContext(a: TaskContext, b: TaskContext): boolean {
  return contextParamNames.every((name) => canonicalUuid(a[name]) === canonicalUuid(b[name]));
}
