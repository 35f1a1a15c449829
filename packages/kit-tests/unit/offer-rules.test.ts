import { describe, expect, it } from 'vitest';
import { checkAgainAfterMsOf, offerIsEmpty } from '@partner-task-kit/workflow/offer-rules';
import type { WorkflowDefinition } from '@partner-task-kit/workflow/workflow-definition';
import { workflowProblems } from '@partner-task-kit/workflow/workflow-path';
import { workAuthorization } from '../fixtures/workflows/work-authorization/definition';

/** The rules of an offer that do not depend on its shape being guessed (docs/connecting-your-backend.md#offers). */
describe('an offer is empty', () => {
  it('as the step declares with isEmpty, whatever the shape', () => {
    const declared = { isEmpty: (offer: unknown) => (offer as { price: number | null }).price === null };
    expect([offerIsEmpty(declared, { price: null, slots: [1] }), offerIsEmpty(declared, { price: 12, slots: [] })]).toEqual([true, false]);
  });

  it('by default when it is an empty array, or an object whose array fields (one at least) all have no items', () => {
    const cases: [unknown, boolean][] = [
      [[], true],
      [{ slots: [] }, true],
      [{ slots: [], days: [], note: 'closed' }, true],
      [[{ id: 1 }], false],
      [{ slots: [], days: ['monday'] }, false],
      [{ contract: 'text' }, false],
      [{}, false],
      ['', false],
      [null, false],
    ];
    expect(cases.map(([offer]) => offerIsEmpty({}, offer))).toEqual(cases.map(([, empty]) => empty));
  });

  it('not when the step’s isEmpty cannot read it: such an offer is kept, as any other', () => {
    const reading = { isEmpty: (offer: unknown) => (offer as { slots: unknown[] }).slots.length === 0 };
    expect(offerIsEmpty(reading, null)).toBe(false);
  });
});

describe('the wait before an empty offer is asked again', () => {
  it('is the step’s checkAgainAfterMs, a minute when absent, kept between 1 s and a day', () => {
    expect([{}, { checkAgainAfterMs: 30_000 }, { checkAgainAfterMs: 10 }, { checkAgainAfterMs: 1e12 }].map(checkAgainAfterMsOf)).toEqual([
      60_000, 30_000, 1_000, 86_400_000,
    ]);
  });

  it('outside those bounds is a problem of the workflow', () => {
    const steps = workAuthorization.steps.map((step) =>
      step.offer ? { ...step, offer: { ...step.offer, checkAgainAfterMs: 500 } } : step,
    );
    const broken: WorkflowDefinition = { ...workAuthorization, steps };
    expect(workflowProblems(broken)).toEqual([
      "step appointment: its offer's checkAgainAfterMs must be a whole number of ms from 1000 to 86400000, got 500",
    ]);
  });
});
