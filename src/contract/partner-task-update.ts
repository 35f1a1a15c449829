import { z } from 'zod';

/**
 * The four task statuses a partner may send (spec 2.6, 3). `viewed` appears in the review-reset rule of spec 3 but is
 * not among the allowed values, so we never send it.
 */
export const taskStatuses = ['ready', 'inProgress', 'completed', 'error'] as const;
const taskStatusSchema = z.enum(taskStatuses);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

/** Completed or in error (spec 3): the attempt is over, and only a new attempt (a restart) moves the task again. */
export function isClosed(status: string): status is 'completed' | 'error' {
  return status === 'completed' || status === 'error';
}

const partnerStatusColors = ['success', 'warning', 'danger', 'neutral'] as const;
const partnerStatusColorSchema = z.enum(partnerStatusColors);
export type PartnerStatusColor = z.infer<typeof partnerStatusColorSchema>;

/** spec 2.6, 8: partnerStatus.label is at most 32 characters, counted as characters (code points), not UTF-16 units. */
export const PARTNER_LABEL_MAX = 32;

/** Characters as a person counts them: an emoji or a letter outside the BMP is one, not two UTF-16 units. */
export function labelLength(label: string): number {
  let count = 0;
  for (const _ of label) count += 1;
  return count;
}

/**
 * spec 2.5: the context values are "UUID strings". The platform's UUID version is not shown, so any
 * 8-4-4-4-12 hexadecimal form is accepted rather than only RFC 4122 versions.
 */
export const contextUuidSchema = z.guid({ error: 'must be a UUID (8-4-4-4-12 hexadecimal)' });

/** ISO 8601 date-time with a time zone designator, e.g. 2026-11-22T10:00:00.000Z (spec 2.6 sentAt). */
const isoDateTimeSchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

const partnerStatusSchema = z
  .object({
    label: z
      .string()
      .refine((label) => labelLength(label) <= PARTNER_LABEL_MAX, `must be at most ${PARTNER_LABEL_MAX} characters`)
      .optional(),
    color: partnerStatusColorSchema.optional(),
    details: z.string().optional(),
  })
  .strict();

/** The partner task update record of spec 2.6, the body of endpoint 4.3. */
export const partnerTaskUpdateSchema = z
  .object({
    taskStatus: taskStatusSchema,
    sentAt: isoDateTimeSchema,
    partnerId: z.string().optional(),
    partnerUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    partnerStatus: partnerStatusSchema.optional(),
  })
  .strict();
export type PartnerTaskUpdate = z.infer<typeof partnerTaskUpdateSchema>;

/** An update as a task service asks to send it: its sentAt is assigned when it is written to the outbox. */
export type PartnerTaskUpdateRecord = Omit<PartnerTaskUpdate, 'sentAt'>;
