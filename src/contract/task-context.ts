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
