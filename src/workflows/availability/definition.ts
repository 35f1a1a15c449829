import { z } from 'zod/mini';
import { defineStep, type WorkflowDefinition } from '@partner-task-kit/workflow';
import { startDataSchema } from './definition.start-date';

/**
 * Availability and preferences: when the worker can start, which shifts they can take (with the questions those
 * shifts raise) and how many hours a week. Nothing is graded, so there is no `definition.server.ts`: the server
 * validates every step with the schemas below, which the page uses too. Imported by both, so nothing here is secret.
 */
const AVAILABILITY_ID = 'availability';

export const shiftIds = ['morning', 'afternoon', 'night', 'weekend'] as const;
export type ShiftId = (typeof shiftIds)[number];

export const WEEKLY_HOURS = { min: 8, max: 60 } as const;
export const WEEKENDS_PER_MONTH = { min: 1, max: 4 } as const;
export const NOTE_MAX_CHARS = 500;

const shiftsShape = z.strictObject({
  shifts: z.array(z.enum(shiftIds, { error: 'each shift must be morning, afternoon, night or weekend' })).check(
    z.minLength(1, 'choose at least one shift'),
    z.refine((shifts) => new Set(shifts).size === shifts.length, 'each shift at most once'),
  ),
  /** Asked only with night shifts: a night ends after public transport stops. */
  transportAfterMidnight: z.optional(z.boolean({ error: 'must be true or false' })),
  /** Asked only with weekend shifts. */
  weekendsPerMonth: z.optional(
    z
      .int({ error: 'must be a whole number' })
      .check(
        z.minimum(WEEKENDS_PER_MONTH.min, `at least ${WEEKENDS_PER_MONTH.min}`),
        z.maximum(WEEKENDS_PER_MONTH.max, `at most ${WEEKENDS_PER_MONTH.max}`),
      ),
  ),
});

/**
 * A conditional question is answered exactly when its shift is chosen: an answer without the shift would be data the
 * worker no longer sees on the screen (they unticked the shift), so it is refused rather than silently stored.
 */
const conditionalQuestions = [
  { shift: 'night', field: 'transportAfterMidnight' },
  { shift: 'weekend', field: 'weekendsPerMonth' },
] as const satisfies readonly { shift: ShiftId; field: keyof z.infer<typeof shiftsShape> }[];

export const shiftsDataSchema = shiftsShape.check(
  z.superRefine((data, context) => {
    for (const { shift, field } of conditionalQuestions) {
      const chosen = data.shifts.includes(shift);
      const answered = data[field] !== undefined;
      if (chosen && !answered)
        context.addIssue({ code: 'custom', path: [field], message: `is required with ${shift} shifts`, input: data });
      if (!chosen && answered)
        context.addIssue({ code: 'custom', path: [field], message: `is asked only with ${shift} shifts`, input: data });
    }
  }),
);
export type ShiftsData = z.infer<typeof shiftsDataSchema>;

export const hoursDataSchema = z.strictObject({
  maxWeeklyHours: z
    .int({ error: 'must be a whole number of hours' })
    .check(z.minimum(WEEKLY_HOURS.min, `at least ${WEEKLY_HOURS.min}`), z.maximum(WEEKLY_HOURS.max, `at most ${WEEKLY_HOURS.max}`)),
  note: z.optional(
    z.string().check(
      z.trim(),
      z.refine((note) => Array.from(note).length <= NOTE_MAX_CHARS, `at most ${NOTE_MAX_CHARS} characters`),
      // Free text for a person to read: line breaks and tabs, but no other control characters.
      z.regex(/^(?:[^\p{Cc}]|[\n\r\t])*$/u, 'no control characters'),
    ),
  ),
});
export type HoursData = z.infer<typeof hoursDataSchema>;

/** English, for the admin's task panel (docs/platform.md#partner-task-update-record details), like every report. */
const shiftNames: Record<ShiftId, string> = { morning: 'mornings', afternoon: 'afternoons', night: 'nights', weekend: 'weekends' };

function describeShifts(data: ShiftsData): string {
  const parts = data.shifts.map((shift) => {
    if (shift === 'night' && data.transportAfterMidnight !== undefined) {
      return `nights (transport home after midnight: ${data.transportAfterMidnight ? 'yes' : 'no'})`;
    }
    if (shift === 'weekend' && data.weekendsPerMonth !== undefined) return `weekends (${data.weekendsPerMonth} a month)`;
    return shiftNames[shift];
  });
  return `Shifts: ${parts.join(', ')}.`;
}

export const availability: WorkflowDefinition<typeof AVAILABILITY_ID> = {
  id: AVAILABILITY_ID,
  title: 'Availability and preferences',
  estimatedMinutes: 3,
  steps: [
    defineStep({
      id: 'start',
      shortName: 'Start date',
      schema: startDataSchema,
      report: (data) => ({ color: 'neutral', details: `The worker can start on ${data.startDate}.` }),
    }),
    defineStep({
      id: 'shifts',
      shortName: 'Shifts',
      schema: shiftsDataSchema,
      report: (data) => ({ color: 'neutral', details: describeShifts(data) }),
    }),
    defineStep({
      id: 'hours',
      shortName: 'Hours',
      schema: hoursDataSchema,
      // The note may hold personal circumstances: it stays with the partner (partnerUrl), not in the platform's panel.
      report: (data) => ({
        color: 'success',
        details: `Availability complete: at most ${data.maxWeeklyHours} hours a week${data.note ? '; the worker added a note' : ''}.`,
      }),
    }),
  ],
};

// What the kit finds in this folder (docs/architecture.md#a-workflow-is-a-folder).
export default availability;
