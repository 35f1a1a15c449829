import { z } from 'zod';
import { taskStatuses } from './task-status.ts';

const taskStatusSchema = z.enum(taskStatuses);

const partnerStatusColors = ['success', 'warning', 'danger', 'neutral'] as const;
const partnerStatusColorSchema = z.enum(partnerStatusColors);
export type PartnerStatusColor = z.infer<typeof partnerStatusColorSchema>;

/** docs/platform.md#partner-task-update-record and docs/platform.md#limits: partnerStatus.label is at most 32 characters, counted as characters (code points), not UTF-16 units. */
export const PARTNER_LABEL_MAX = 32;

/** Characters as a person counts them: an emoji or a letter outside the BMP is one, not two UTF-16 units. */
export function labelLength(label: string): number {
  let count = 0;
  for (const _ of label) count += 1;
  return count;
}

/**
 * docs/platform.md#task-context: the context values are "UUID strings". The platform's UUID version is not shown, so any
 * 8-4-4-4-12 hexadecimal form is accepted rather than only RFC 4122 versions.
 */
export const contextUuidSchema = z.guid({ error: 'must be a UUID (8-4-4-4-12 hexadecimal)' });

/** ISO 8601 date-time with a time zone designator, e.g. 2026-11-22T10:00:00.000Z (docs/platform.md#partner-task-update-record sentAt). */
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

/** The partner task update record of docs/platform.md#partner-task-update-record, the body of endpoint 4.3. */
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
