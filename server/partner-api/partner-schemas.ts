import { z } from 'zod/mini';
import { isoDateTimeField, nonNegativeInt, positiveInt, taskStatusField } from '../../src/contract/contract-fields';
import { taskUpdatesResponseSchema } from '../../src/contract/task-updates';
import { taskViewSchema } from '../../src/contract/task-view';

/*
 * The partner API's bodies (docs/api.md, "Partner API"). Server to server, so kept beside its routes rather than in
 * src/contract/, which the page bundles.
 */

/** Any string: an id of another form answers 404 as an unknown task does, not a 400 that would tell them apart. */
export const partnerTaskParamsSchema = z.object({ assignedTaskUuid: z.string().check(z.minLength(1), z.maxLength(100)) });

export const partnerStepParamsSchema = z.object({
  assignedTaskUuid: z.string().check(z.minLength(1), z.maxLength(100)),
  stepId: z.string().check(z.minLength(1), z.maxLength(100)),
});

export const partnerStepBodySchema = z.object({ data: z.unknown() });

export const partnerStepResultSchema = z.object({ task: taskViewSchema });

export const changesQuerySchema = z.object({
  /** The `nextCursor` of the previous page; absent: from the first change kept. */
  updatedAfter: z.optional(z.string().check(z.maxLength(200))),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 100),
});

const historyEntrySchema = z.object({
  attempt: positiveInt,
  kind: z.string(),
  stepId: z.nullable(z.string()),
  at: isoDateTimeField,
});

export const partnerTaskSchema = z.object({
  /** Our id of the task: the `partnerId` of every update sent for it. */
  id: z.string(),
  assignedTaskUuid: z.string(),
  context: z.object({ workerUuid: z.string(), taskFlowUuid: z.string(), companyUuid: z.string() }),
  workflow: z.object({ id: z.string(), steps: z.array(z.object({ id: z.string(), completedBy: z.optional(z.string()) })) }),
  status: taskStatusField,
  attempt: positiveInt,
  currentStep: z.nullable(z.string()),
  /** Each step's data as saved in the current attempt. A restart clears it: earlier attempts' data are not kept. */
  stepData: z.record(z.string(), z.unknown()),
  failedReason: z.nullable(z.string()),
  /** The platform refused the task; nothing more is sent for it. */
  rejected: z.boolean(),
  /** Every attempt's history, oldest first: what is left of earlier attempts. */
  history: z.array(historyEntrySchema),
  /** The updates sent, or to send, to the platform, with their delivery state. */
  updates: taskUpdatesResponseSchema.shape.updates,
  createdAt: isoDateTimeField,
  updatedAt: isoDateTimeField,
});
export type PartnerTask = z.infer<typeof partnerTaskSchema>;

const taskChangeSchema = z.object({
  id: z.string(),
  assignedTaskUuid: z.string(),
  companyUuid: z.string(),
  workflowId: z.string(),
  status: taskStatusField,
  attempt: positiveInt,
  currentStep: z.nullable(z.string()),
  rejected: z.boolean(),
  updatedAt: isoDateTimeField,
});

export const taskChangesSchema = z.object({
  /** Oldest change first; a task changed again since appears once, at its latest change. */
  tasks: z.array(taskChangeSchema),
  /** Send it back as `updatedAfter`; the same cursor when nothing changed. */
  nextCursor: z.string(),
  count: nonNegativeInt,
});
export type TaskChanges = z.infer<typeof taskChangesSchema>;
