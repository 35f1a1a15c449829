import { describe, expect, it } from 'vitest';
import { stepSavedUpdate, completedUpdate, startedUpdate } from '@partner-task-kit/server';
import { labelLength, partnerTaskUpdateSchema, PARTNER_LABEL_MAX } from '@partner-task-kit/workflow/contract';
import definition, { availability, hoursDataSchema, shiftsDataSchema } from '../../src/workflows/availability/definition';
import {
  addYears,
  anyZoneStartDateRange,
  localDay,
  startDataSchemaAt,
  startDateProblem,
  startDateRange,
} from '../../src/workflows/availability/definition.start-date';
import workflows from 'virtual:partner-task-kit/workflows';

/** A workflow as the server receives it from its folder (server/main.ts). */
const folderOf = (id: string) => workflows.find((workflow) => workflow.definition.id === id);
/** Every workflow of the app, whatever else it holds beside this example. */
const ids = workflows.map((workflow) => workflow.definition.id);

const NOW = Date.parse('2026-03-01T09:00:00.000Z');
const startData = startDataSchemaAt(() => NOW);
const target = { taskId: 'task-1', partnerUrl: undefined };

/** The field each issue names (`transportAfterMidnight`), as the server's 400 invalid_step_data names `data.<field>`. */
function problems(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): string[] {
  return (result.error?.issues ?? []).map((issue) => issue.path.join('.'));
}

describe('the availability workflow: start date', () => {
  it('takes today up to the same day a year ahead, on the worker’s own calendar (the page)', () => {
    expect(startDateRange('2026-03-01')).toEqual({ min: '2026-03-01', max: '2027-03-01' });
    expect(startDateProblem('2026-03-01', startDateRange('2026-03-01'))).toBeUndefined();
    expect(startDateProblem('2027-03-01', startDateRange('2026-03-01'))).toBeUndefined();
    expect(startDateProblem('2026-02-28', startDateRange('2026-03-01'))).toBe('past');
    expect(startDateProblem('2027-03-02', startDateRange('2026-03-01'))).toBe('tooFar');
    expect(startDateProblem('', startDateRange('2026-03-01'))).toBe('missing');
    expect(startDateProblem('2026-02-30', startDateRange('2026-03-01'))).toBe('invalid');
    expect(startDateProblem('1/3/2026', startDateRange('2026-03-01'))).toBe('invalid');
  });

  it('moves 29 February a year ahead to 28 February, never past the year', () => {
    expect(addYears('2028-02-29', 1)).toBe('2029-02-28');
    expect(addYears('2026-12-31', 1)).toBe('2027-12-31');
  });

  it('reads the local calendar day, not the UTC one', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });

  it('on the server, accepts the worker’s today in any time zone from UTC-12 to UTC+14', () => {
    // 09:00 UTC on 1 March: still 28 February at UTC-12, already 1 March everywhere east of it.
    expect(anyZoneStartDateRange(NOW)).toEqual({ min: '2026-02-28', max: '2027-03-01' });
    // 12:00 UTC: already 2 March at UTC+14, so a year ahead of that is allowed.
    expect(anyZoneStartDateRange(Date.parse('2026-03-01T12:00:00.000Z'))).toEqual({ min: '2026-03-01', max: '2027-03-02' });
    expect(startData.safeParse({ startDate: '2026-02-28' }).success).toBe(true);
    expect(startData.safeParse({ startDate: '2027-03-01' }).success).toBe(true);
  });

  it.each([
    ['a day in the past in every zone', { startDate: '2026-02-27' }, 'startDate'],
    ['a day more than a year ahead in every zone', { startDate: '2027-03-02' }, 'startDate'],
    ['a day that does not exist', { startDate: '2026-02-30' }, 'startDate'],
    ['a date with a time', { startDate: '2026-03-05T00:00:00Z' }, 'startDate'],
    ['no date', {}, 'startDate'],
    ['an unexpected field', { startDate: '2026-03-05', urgent: true }, ''],
  ])('refuses %s', (_name, data, field) => {
    expect(problems(startData.safeParse(data))).toEqual([field]);
  });
});

describe('the availability workflow: shifts and their questions', () => {
  it('takes shifts alone when neither nights nor weekends are chosen', () => {
    expect(shiftsDataSchema.safeParse({ shifts: ['morning', 'afternoon'] }).success).toBe(true);
  });

  it('asks about transport home with nights and how many weekends with weekends', () => {
    expect(problems(shiftsDataSchema.safeParse({ shifts: ['night', 'weekend'] }))).toEqual(['transportAfterMidnight', 'weekendsPerMonth']);
    const answered = { shifts: ['night', 'weekend'], transportAfterMidnight: false, weekendsPerMonth: 2 };
    expect(shiftsDataSchema.parse(answered)).toEqual(answered);
  });

  it('refuses an answer to a question its shift did not raise (the worker unticked the shift)', () => {
    expect(problems(shiftsDataSchema.safeParse({ shifts: ['morning'], transportAfterMidnight: true }))).toEqual(['transportAfterMidnight']);
    expect(problems(shiftsDataSchema.safeParse({ shifts: ['night'], transportAfterMidnight: true, weekendsPerMonth: 1 }))).toEqual([
      'weekendsPerMonth',
    ]);
  });

  it.each([
    ['no shift', { shifts: [] }, 'shifts'],
    ['an unknown shift', { shifts: ['evening'] }, 'shifts.0'],
    ['a shift twice', { shifts: ['morning', 'morning'] }, 'shifts'],
    ['no shifts at all', {}, 'shifts'],
    ['weekends a month below 1', { shifts: ['weekend'], weekendsPerMonth: 0 }, 'weekendsPerMonth'],
    ['weekends a month above 4', { shifts: ['weekend'], weekendsPerMonth: 5 }, 'weekendsPerMonth'],
    ['half a weekend', { shifts: ['weekend'], weekendsPerMonth: 1.5 }, 'weekendsPerMonth'],
    ['transport as text', { shifts: ['night'], transportAfterMidnight: 'yes' }, 'transportAfterMidnight'],
  ])('refuses %s', (_name, data, field) => {
    expect(problems(shiftsDataSchema.safeParse(data))).toEqual([field]);
  });
});

describe('the availability workflow: hours and note', () => {
  it('takes 8 to 60 whole hours and an optional note, trimmed', () => {
    expect(hoursDataSchema.parse({ maxWeeklyHours: 8 })).toEqual({ maxWeeklyHours: 8 });
    expect(hoursDataSchema.parse({ maxWeeklyHours: 60, note: '  No Mondays.\nThanks  ' })).toEqual({
      maxWeeklyHours: 60,
      note: 'No Mondays.\nThanks',
    });
    expect(hoursDataSchema.safeParse({ maxWeeklyHours: 20, note: 'é'.repeat(500) }).success).toBe(true);
  });

  it.each([
    ['7 hours', { maxWeeklyHours: 7 }, 'maxWeeklyHours'],
    ['61 hours', { maxWeeklyHours: 61 }, 'maxWeeklyHours'],
    ['8.5 hours', { maxWeeklyHours: 8.5 }, 'maxWeeklyHours'],
    ['hours as text', { maxWeeklyHours: '20' }, 'maxWeeklyHours'],
    ['a note of 501 characters', { maxWeeklyHours: 20, note: 'x'.repeat(501) }, 'note'],
    ['a note with a control character', { maxWeeklyHours: 20, note: 'a\u0007b' }, 'note'],
  ])('refuses %s', (_name, data, field) => {
    expect(problems(hoursDataSchema.safeParse(data))).toEqual([field]);
  });
});

describe('the availability workflow: what it reports (spec 2.6, 8)', () => {
  const [start, shifts, hours] = availability.steps;

  it('labels every step within 32 characters', () => {
    expect(startedUpdate(target, availability, 1).partnerStatus?.label).toBe('Step 1 of 3 · Start date');
    for (const index of availability.steps.keys()) {
      const record = stepSavedUpdate(target, availability, onStep(index), { color: 'neutral', details: 'x' });
      expect(labelLength(record.partnerStatus?.label ?? '')).toBeLessThanOrEqual(PARTNER_LABEL_MAX);
    }
    expect(stepSavedUpdate(target, availability, onStep(1), { color: 'neutral', details: 'x' }).partnerStatus?.label).toBe(
      'Step 2 of 3 · Shifts',
    );
    expect(stepSavedUpdate(target, availability, onStep(2), { color: 'neutral', details: 'x' }).partnerStatus?.label).toBe(
      'Step 3 of 3 · Hours',
    );
  });

  it('says what the worker answered, in valid update records', () => {
    expect(start?.report({ startDate: '2026-03-09' }, undefined)).toEqual({
      color: 'neutral',
      details: 'The worker can start on 2026-03-09.',
    });
    expect(
      shifts?.report({ shifts: ['morning', 'night', 'weekend'], transportAfterMidnight: true, weekendsPerMonth: 2 }, undefined).details,
    ).toBe('Shifts: mornings, nights (transport home after midnight: yes), weekends (2 a month).');
    const done = hours?.report({ maxWeeklyHours: 30, note: 'No Mondays' }, undefined);
    expect(done).toEqual({ color: 'success', details: 'Availability complete: at most 30 hours a week; the worker added a note.' });
    expect(partnerTaskUpdateSchema.safeParse({ ...completedUpdate(target, done!), sentAt: new Date(NOW).toISOString() }).success).toBe(
      true,
    );
  });

  it('keeps the note itself out of the platform’s panel', () => {
    expect(hours?.report({ maxWeeklyHours: 30, note: 'I care for my father on Mondays' }, undefined).details).not.toContain('father');
  });
});

describe('the availability workflow as a folder', () => {
  // docs/architecture.md#a-workflow-is-a-folder: an app made with this example alone (npm create partner-task-kit --
  // --workflow availability) runs this test too.
  it('is its folder’s workflow, with no grader and so no server half (nothing is graded)', () => {
    expect(definition).toBe(availability);
    expect(availability.id).toBe('availability');
    expect(availability.steps.some((step) => step.grading)).toBe(false);
    expect(folderOf('availability')?.server).toBeUndefined();
  });

  it.each(ids)('finds %s by its id, once, with a grader on the server for each of its graded steps', (id) => {
    expect(ids.filter((other) => other === id)).toHaveLength(1);
    const definition = folderOf(id)?.definition;
    expect(definition?.id).toBe(id);
    for (const step of definition?.steps.filter((each) => each.grading) ?? []) {
      expect(folderOf(id)?.server?.graders[step.id], `grader of ${id}/${step.id}`).toBeTypeOf('function');
    }
  });
});

/** The task on step `index` of the workflow: every step before it answered. */
function onStep(index: number) {
  const stepData = Object.fromEntries(availability.steps.slice(0, index).map((step) => [step.id, {}]));
  return { stepData, nextStepId: availability.steps[index]!.id };
}
