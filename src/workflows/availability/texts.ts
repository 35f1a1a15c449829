import type { ShiftId } from './definition';

/** Every text the worker sees in this workflow; one file per language. */
export interface AvailabilityTexts {
  stepTitles: Record<'start' | 'shifts' | 'hours', string>;
  start: {
    intro: string;
    estimate(minutes: number): string;
    dateLabel: string;
    dateHint: string;
    errors: Record<'missing' | 'invalid' | 'past' | 'tooFar', string>;
    continue: string;
  };
  shifts: {
    legend: string;
    hint: string;
    names: Record<ShiftId, string>;
    mustChoose: string;
    transport: { legend: string; yes: string; no: string; mustAnswer: string };
    weekends: { legend: string; option(count: number): string; mustAnswer: string };
    continue: string;
  };
  hours: {
    hoursLabel: string;
    hoursHint(min: number, max: number): string;
    hoursError(min: number, max: number): string;
    noteLabel: string;
    noteHint: string;
    noteCount(used: number, max: number): string;
    noteTooLong(max: number): string;
    submit: string;
  };
}
