import { z } from 'zod/mini';

/*
 * The start date's rules, apart from the rest of the definition: the first step, which a link's page preloads, needs
 * these and none of the later steps' schemas (docs/development.md#benchmarks, the first screen's JavaScript).
 */

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
 * The engine parses a step's data with its schema and hands it no clock (packages/server/src/task-progress/step-decision.ts), so
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
