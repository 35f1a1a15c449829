import { z } from 'zod/mini';

/**
 * The emulator's view of an assigned task (packages/dev/src/emulator/assignment-types.ts AssignmentView), as the preview reads
 * it. Records are kept loose on purpose: the trail shows what the emulator received, valid or not.
 */
const receivedUpdateSchema = z.object({
  taskStatus: z.string(),
  sentAt: z.string(),
  partnerId: z.optional(z.string()),
  partnerUrl: z.optional(z.string()),
  partnerStatus: z.optional(z.object({ label: z.optional(z.string()), color: z.optional(z.string()), details: z.optional(z.string()) })),
});

const assignmentOptionsSchema = z.object({
  title: z.string(),
  estimatedCompletionTime: z.optional(z.string()),
  iframeUrl: z.string(),
  endEvent: z.optional(z.string()),
  appendTaskContext: z.boolean(),
  hideTaskCompletedButton: z.boolean(),
  requireReview: z.boolean(),
  /** wxCompanyUuid of the assignment; a fresh one when absent. */
  companyUuid: z.optional(z.string()),
});
export type AssignmentOptions = z.infer<typeof assignmentOptionsSchema>;

const trailEntrySchema = z.union([
  z.object({
    kind: z.literal('partner'),
    at: z.string(),
    record: receivedUpdateSchema,
    outcome: z.enum(['applied', 'obsolete', 'duplicate']),
  }),
  z.object({ kind: z.enum(['admin', 'portal']), at: z.string(), action: z.string() }),
]);
export type TrailEntry = z.infer<typeof trailEntrySchema>;

export const assignmentSchema = z.object({
  workerUuid: z.string(),
  assignedTaskUuid: z.string(),
  taskFlowUuid: z.string(),
  companyUuid: z.string(),
  options: assignmentOptionsSchema,
  launchUrl: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: z.string(),
  review: z.object({
    required: z.boolean(),
    state: z.enum(['none', 'pending', 'approved', 'rejected']),
    decidedAt: z.optional(z.string()),
  }),
  workerActed: z.boolean(),
  latest: z.nullable(z.object({ record: receivedUpdateSchema, receivedAt: z.string() })),
  trail: z.array(trailEntrySchema),
  trailDropped: z.number(),
});
export type Assignment = z.infer<typeof assignmentSchema>;

export const assignmentListSchema = z.object({ assignments: z.array(assignmentSchema) });
