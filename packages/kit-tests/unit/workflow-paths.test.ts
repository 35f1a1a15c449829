import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod/mini';
import { ApiError } from '@partner-task-kit/server/api-error';
import type { Task } from '@partner-task-kit/server/store/tasks.table';
import { decideBack, decideStepSubmission, type StepDecision } from '@partner-task-kit/server/task-progress/step-decision';
import { workAuthorization } from '../fixtures/workflows/work-authorization/definition';
import { stepsOf, type WorkflowDefinition } from '@partner-task-kit/workflow/workflow-definition';
import {
  answeredPath,
  answersKept,
  longestPathOf,
  previousStepId,
  progressOf,
  workflowProblems,
} from '@partner-task-kit/workflow/workflow-path';

const TODAY = '2026-03-01';

function task(currentStep: string | null, stepData: Record<string, unknown> = {}): Task {
  return {
    id: 't1',
    assignedTaskUuid: 'a1',
    workerUuid: 'w1',
    taskFlowUuid: 'f1',
    companyUuid: 'c1',
    workflowId: workAuthorization.id,
    status: 'inProgress',
    attempt: 1,
    currentStep,
    stepData,
    attemptStartedAt: 1,
    failedReason: null,
    rejectedAt: null,
    confirmedAt: null,
    createdAt: 1,
    updatedAt: 1,
  } as Task;
}

const submit = (at: Task, stepId: string, data: unknown, offer?: unknown): StepDecision =>
  decideStepSubmission({
    workflow: workAuthorization,
    server: undefined,
    task: at,
    stepId,
    data,
    earlierFailures: [],
    today: TODAY,
    offer,
  });

/** The error a decision throws: its code and the field it names. */
function apiRefusal(decide: () => unknown): { code: string; field: string | undefined } {
  try {
    decide();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, field: error.field };
    throw error;
  }
  throw new Error('expected a refusal');
}

const citizen = { citizenship: { citizen: true } };
const nonCitizen = { citizenship: { citizen: false } };
/** Two upload ids, as the photos step holds them (the server checks they are this task's completed uploads). */
const photos = { photos: { front: 'F'.repeat(22), back: 'B'.repeat(22) } };
const slots = { slots: [{ id: 'slot-1', startsAt: '2030-01-07T09:00:00.000Z', place: 'Centre' }] };

describe('a workflow that branches', () => {
  it('is a workflow the engine can run', () => {
    expect(workflowProblems(workAuthorization)).toEqual([]);
  });

  it('takes the branch the answer names, and ends after the step whose next is the end', () => {
    const first = submit(task('citizenship'), 'citizenship', { citizen: true });
    expect(first).toMatchObject({ kind: 'advanced', nextStepId: 'national-id' });
    expect(submit(task('citizenship'), 'citizenship', { citizen: false })).toMatchObject({ kind: 'advanced', nextStepId: 'document' });
    const id = submit(task('national-id', citizen), 'national-id', { nationalId: ' ab12cd ' });
    expect(id).toMatchObject({ kind: 'advanced', nextStepId: 'photos', stepData: { 'national-id': { nationalId: 'AB12CD' } } });
    const sides = submit(task('photos', { ...citizen, 'national-id': { nationalId: 'AB12CD' } }), 'photos', photos.photos);
    expect(sides).toMatchObject({ kind: 'advanced', nextStepId: 'postcode', stepData: photos });
  });

  it('refuses a step that is not on the path: the document after "citizen: true"', () => {
    const at = task('national-id', citizen);
    expect(apiRefusal(() => submit(at, 'document', { documentType: 'passport', expiryDate: '2030-01-01' }))).toEqual({
      code: 'step_out_of_order',
      field: 'stepId',
    });
  });

  it('checks an answer against today: an expiry date in the past is refused, naming the field', () => {
    const at = task('document', nonCitizen);
    expect(apiRefusal(() => submit(at, 'document', { documentType: 'passport', expiryDate: '2026-02-28' }))).toEqual({
      code: 'invalid_step_data',
      field: 'data.expiryDate',
    });
    expect(apiRefusal(() => submit(at, 'document', { documentType: 'passport', expiryDate: TODAY })).field).toBe('data.expiryDate');
    expect(submit(at, 'document', { documentType: 'work-visa', expiryDate: '2026-03-02' })).toMatchObject({ kind: 'advanced' });
  });

  it('checks an answer against the offer shown, and refuses one sent before the offer was loaded', () => {
    const answered = { ...citizen, 'national-id': { nationalId: 'AB12CD' }, ...photos, postcode: { postcode: '1000' } };
    const at = task('appointment', answered);
    expect(apiRefusal(() => submit(at, 'appointment', { slotId: 'slot-9' }, slots))).toEqual({
      code: 'invalid_step_data',
      field: 'data.slotId',
    });
    expect(apiRefusal(() => submit(at, 'appointment', { slotId: 'slot-1' })).code).toBe('offer_not_loaded');
    expect(submit(at, 'appointment', { slotId: 'slot-1' }, slots)).toMatchObject({ kind: 'advanced', nextStepId: 'verification' });
  });

  it('drops the answers of a branch an earlier answer leaves, and keeps those still ahead', () => {
    const answered = { ...citizen, 'national-id': { nationalId: 'AB12CD' }, ...photos, postcode: { postcode: '1000' } };
    // Back on the first step, the worker says they are not a citizen after all.
    const changed = submit(task('citizenship', answered), 'citizenship', { citizen: false });
    expect(changed).toMatchObject({ kind: 'advanced', nextStepId: 'document' });
    expect(changed.stepData).toEqual({ citizenship: { citizen: false }, ...photos, postcode: { postcode: '1000' } });
    // The same answer again changes nothing ahead.
    expect(submit(task('citizenship', answered), 'citizenship', { citizen: true }).stepData).toEqual(answered);
  });

  it('goes back one step on the path, answers kept; not from the first step nor from a partner step', () => {
    const answered = { ...nonCitizen, document: { documentType: 'passport', expiryDate: '2030-01-01' }, ...photos };
    expect(decideBack({ workflow: workAuthorization, task: task('postcode', answered), from: 'postcode' })).toEqual({
      previousStepId: 'photos',
    });
    expect(previousStepId(workAuthorization, answered, 'photos')).toBe('document');
    expect(previousStepId(workAuthorization, answered, 'document')).toBe('citizenship');
    expect(apiRefusal(() => decideBack({ workflow: workAuthorization, task: task('citizenship'), from: 'citizenship' })).code).toBe(
      'back_not_allowed',
    );
    expect(apiRefusal(() => decideBack({ workflow: workAuthorization, task: task('postcode', answered), from: 'document' })).code).toBe(
      'step_out_of_order',
    );
    const waiting = { ...answered, postcode: { postcode: '1000' }, appointment: { slotId: 'slot-1' } };
    expect(
      apiRefusal(() => decideBack({ workflow: workAuthorization, task: task('verification', waiting), from: 'verification' })).code,
    ).toBe('back_not_allowed');
  });

  it('counts progress along the path, never past its total', () => {
    expect(longestPathOf(workAuthorization)).toBe(6);
    expect(progressOf(workAuthorization, {}, 'citizenship')).toEqual({ position: 1, total: 6 });
    expect(progressOf(workAuthorization, citizen, 'national-id')).toEqual({ position: 2, total: 6 });
    const short = uneven();
    // Before the branch is decided the total is the longest way; once on the short branch, its own length.
    expect(progressOf(short, {}, 'start')).toEqual({ position: 1, total: 4 });
    expect(progressOf(short, { start: { long: false } }, 'short')).toEqual({ position: 2, total: 2 });
    expect(progressOf(short, { start: { long: true } }, 'long-1')).toEqual({ position: 2, total: 4 });
    for (const [stepData, stepId] of [
      [{ start: { long: true }, 'long-1': {}, 'long-2': {} }, 'end'],
      [{ start: { long: false } }, 'short'],
    ] as const) {
      const { position, total } = progressOf(short, stepData, stepId);
      expect(position).toBeLessThanOrEqual(total);
    }
    expect(answeredPath(short, { start: { long: false }, short: {} })).toMatchObject({ ends: true });
  });

  it('keeps the answers of steps the path can still reach', () => {
    const answered = { ...nonCitizen, 'national-id': { nationalId: 'X' }, ...photos, postcode: { postcode: '1' } };
    expect(answersKept(workAuthorization, answered)).toEqual({ ...nonCitizen, ...photos, postcode: { postcode: '1' } });
  });

  it('finds what makes a workflow impossible to run', () => {
    const postcodeStep = workAuthorization.steps.find((step) => step.id === 'postcode')!;
    const broken: WorkflowDefinition = {
      ...workAuthorization,
      steps: [
        { ...workAuthorization.steps[0]!, next: 'nowhere' },
        { ...postcodeStep, next: 'citizenship' },
      ],
    };
    expect(workflowProblems(broken)).toEqual(['step citizenship leads to nowhere, which is not a step of the workflow']);
    const looping: WorkflowDefinition = { ...workAuthorization, steps: [{ ...postcodeStep, next: 'postcode' }] };
    expect(workflowProblems(looping)).toEqual(['its steps loop: postcode -> postcode']);
  });

  it('types a branch: a misspelt step id or a wrong answer type fails the type check', () => {
    const step = stepsOf({ a: z.strictObject({ yes: z.boolean() }), b: z.strictObject({}) });
    const report = () => ({ color: 'neutral' as const, details: '' });
    step('a', { shortName: 'A', next: { b: (answers) => answers.a?.yes === true }, report });
    // @ts-expect-error: "c" is no step of this workflow
    step('a', { shortName: 'A', next: 'c', report });
    // @ts-expect-error: "c" is no step of this workflow
    step('a', { shortName: 'A', next: { c: () => true }, report });
    // @ts-expect-error: `yes` is a boolean, not a string
    step('a', { shortName: 'A', next: { b: (answers) => answers.a?.yes === 'yes' }, report });
    expectTypeOf(step).toBeFunction();
  });
});

/** A workflow whose branches differ in length: start -> short (end) or start -> long-1 -> long-2 -> end. */
function uneven(): WorkflowDefinition {
  const step = stepsOf({
    start: z.strictObject({ long: z.boolean() }),
    short: z.strictObject({}),
    'long-1': z.strictObject({}),
    'long-2': z.strictObject({}),
    end: z.strictObject({}),
  });
  const report = () => ({ color: 'neutral' as const, details: '' });
  return {
    id: 'uneven',
    title: 'Uneven',
    estimatedMinutes: 1,
    steps: [
      step('start', { shortName: 'Start', next: { 'long-1': (answers) => answers.start?.long === true, short: () => true }, report }),
      step('short', { shortName: 'Short', next: null, report }),
      step('long-1', { shortName: 'Long 1', report }),
      step('long-2', { shortName: 'Long 2', report }),
      step('end', { shortName: 'End', report }),
    ],
  };
}
