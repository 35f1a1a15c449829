import { z } from 'zod/mini';
import {
  isoDateTimeField,
  localisedTextSchema,
  nonNegativeInt,
  positiveInt,
  taskStatusField,
  taskUpdatesResponseSchema,
  taskViewSchema,
} from '@partner-task-kit/workflow/contract';

/*
 * The partner API's bodies (docs/api.md, "Partner API"). Server to server, so kept beside its routes rather than in
 * packages/workflow/src/contract/, which the page bundles.
 */

/** Any string: an id of another form answers 404 as an unknown task does, not a 400 that would tell them apart. */
export const partnerTaskParamsSchema = z.object({ assignedTaskUuid: z.string().check(z.minLength(1), z.maxLength(100)) });

export const partnerStepParamsSchema = z.object({
  assignedTaskUuid: z.string().check(z.minLength(1), z.maxLength(100)),
  stepId: z.string().check(z.minLength(1), z.maxLength(100)),
});

/**
 * How deep a step's data may nest, in arrays and objects. Whatever walks it by recursion (the idempotency hash of
 * idempotent-answer.ts, JSON.stringify when the data is saved) runs out of stack at a few thousand levels, which 10 KB
 * of brackets reach, and would answer 500. 64, System.Text.Json's default: far deeper than any step's data.
 */
const MAX_DATA_DEPTH = 64;

/** Whether `value` nests more than `max` arrays and objects deep: walked with a stack of its own, never by recursion. */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth === max) return true;
    for (const inner of Object.values(next.value)) pending.push({ value: inner, depth: next.depth + 1 });
  }
  return false;
}

/** The files route's parameters. */
export const partnerUploadParamsSchema = z.object({
  assignedTaskUuid: z.string().check(z.minLength(1), z.maxLength(100)),
  /** Any string: one that is no upload id answers 404 as an unknown upload does. */
  uploadId: z.string().check(z.minLength(1), z.maxLength(100)),
});

/** The files route answers bytes of the upload's checked type (docs/connecting-your-backend.md#files), for OpenAPI. */
export const partnerUploadResponses = {
  200: {
    description: 'The stored (cleaned) bytes, as an attachment named `<uploadId>.<extension>`.',
    content: Object.fromEntries((['image/jpeg', 'image/png', 'application/pdf'] as const).map((type) => [type, { schema: z.file() }])),
  },
};

/** The step route's body. */
export const partnerStepBodySchema = z.object({
  data: z
    .unknown()
    .check(z.refine((value) => !nestsDeeperThan(value, MAX_DATA_DEPTH), `nests more than ${MAX_DATA_DEPTH} arrays and objects deep`)),
  /**
   * With a result that fails the step: the reason for the worker, shown on the failure screen (a string, or one per
   * language tag). Apart from the step's data: what `data` says goes to the platform's admins, never to the worker.
   */
  workerMessage: z.optional(localisedTextSchema),
});

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

const taskRemovalSchema = z.object({
  id: z.string(),
  assignedTaskUuid: z.string(),
  companyUuid: z.string(),
  /** `erased`: the worker's data was erased; `released`: an operator released the binding; `purged`: never confirmed. */
  reason: z.enum(['erased', 'released', 'purged']),
  removedAt: isoDateTimeField,
});

export const taskChangesSchema = z.object({
  /** Oldest change first; a task changed again since appears once, at its latest change. */
  tasks: z.array(taskChangeSchema),
  /** Tasks deleted since the cursor: drop your copy. An assigned task is in `tasks` or here, never both in one page. */
  removed: z.array(taskRemovalSchema),
  /** Send it back as `updatedAfter`; the same cursor when nothing changed. Opaque and sealed. */
  nextCursor: z.string(),
  /** Entries in `tasks` and `removed`: 0 when the feed is at its head. */
  count: nonNegativeInt,
});
export type TaskChanges = z.infer<typeof taskChangesSchema>;
