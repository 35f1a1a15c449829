import { z } from 'zod/mini';
import { defineStep, type WorkflowDefinition } from '../workflow-definition';

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

/** Earliest and latest start dates, as YYYY-MM-DD (compared as strings: the format sorts as the calendar does). */
export interface DateRange {
  min: string;
  max: string;
}

const HOUR_MS = 3_600_000;

/** The calendar day at `ms` in UTC, YYYY-MM-DD. */
function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day `years` later; 29 February becomes 28 February of a year without it (never a day beyond the year). */
export function addYears(day: string, years: number): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  const shifted = new Date(Date.UTC(year + years, month - 1, date));
  const overflowed = shifted.getUTCMonth() !== month - 1;
  return utcDay(overflowed ? Date.UTC(year + years, month, 0) : shifted.getTime());
}

/** The worker's own calendar day, YYYY-MM-DD, in the zone of the device showing the page. */
export function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const isoDay = z.iso.date({ error: 'must be a date, YYYY-MM-DD' });

export type StartDateProblem = 'missing' | 'invalid' | 'past' | 'tooFar';

/** What is wrong with a start date for the page to say, by the same rules as the schema, or undefined when nothing. */
export function startDateProblem(day: string, range: DateRange): StartDateProblem | undefined {
  if (day.trim() === '') return 'missing';
  if (!isoDay.safeParse(day).success) return 'invalid';
  if (day < range.min) return 'past';
  if (day > range.max) return 'tooFar';
  return undefined;
}

/** Not in the past, at most a year ahead, for a worker whose today is `today` (the page: exact). */
export function startDateRange(today: string): DateRange {
  return { min: today, max: addYears(today, 1) };
}

/**
 * The same rule for a worker in any time zone (UTC-12 to UTC+14), whose today is one of the calendar days of
 * `now - 12 h` to `now + 14 h` (the server: it cannot know the worker's zone, and must not refuse the worker's today).
 */
export function anyZoneStartDateRange(now: number): DateRange {
  return { min: utcDay(now - 12 * HOUR_MS), max: addYears(utcDay(now + 14 * HOUR_MS), 1) };
}

/**
 * The engine parses a step's data with its schema and hands it no clock (server/task-progress/step-decision.ts), so
 * the schema of the definition reads the real one; this factory takes any, for tests. The server cannot know the
 * worker's time zone, so it accepts the worker's "today" in every zone (anyZoneStartDateRange); the page checks the worker's
 * own calendar exactly.
 */
export function startDataSchemaAt(now: () => number) {
  return z.strictObject({
    startDate: isoDay.check(
      z.refine((day) => day >= anyZoneStartDateRange(now()).min, 'must not be in the past'),
      z.refine((day) => day <= anyZoneStartDateRange(now()).max, 'must be at most one year ahead'),
    ),
  });
}

export const startDataSchema = startDataSchemaAt(() => Date.now());

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
