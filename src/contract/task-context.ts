import { z } from 'zod/mini';
import { contextUuidField } from './contract-fields';

/** spec 2.5: the four parameters the portal appends to the iframe URL, all UUID strings, unsigned. */
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
 * The platform may send UUIDs in upper case; they name the same task, so every value is compared and stored in one
 * form. Without this, one assigned task could own two task rows.
 */
export function normalizeTaskContext(context: TaskContext): TaskContext {
  return {
    wxWorkerUuid: context.wxWorkerUuid.toLowerCase(),
    wxAssignedTaskUuid: context.wxAssignedTaskUuid.toLowerCase(),
    wxTaskFlowUuid: context.wxTaskFlowUuid.toLowerCase(),
    wxCompanyUuid: context.wxCompanyUuid.toLowerCase(),
  };
}
