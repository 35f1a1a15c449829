import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  failedUpdate,
  gradedRetryUpdate,
  openedUpdate,
  restartedUpdate,
  startedUpdate,
  stepSavedUpdate,
} from '@partner-task-kit/server/task-progress/status-updates';
import { labelLength, partnerTaskUpdateSchema, PARTNER_LABEL_MAX } from '@partner-task-kit/workflow/contract/partner-task-update';
import { safetyTraining } from '../fixtures/workflows/safety-training/definition';
import { fitLabel, updateLabels } from '@partner-task-kit/workflow/contract/status-updates';
import type { WorkflowDefinition } from '@partner-task-kit/workflow/workflow-definition';

const target = { taskId: 'task-1', partnerUrl: undefined };

describe('status labels (spec 8: at most 32 characters)', () => {
  it('reads "Step 2 of 4 · Policy"', () => {
    expect(updateLabels.stepSaved({ index: 1, count: 4, name: 'Policy' })).toBe('Step 2 of 4 · Policy');
  });

  it('cuts a long step name with an ellipsis instead of exceeding the limit', () => {
    const label = updateLabels.stepSaved({ index: 9, count: 12, name: 'Hazardous materials handling and storage' });
    expect(label).toHaveLength(PARTNER_LABEL_MAX);
    expect(label).toMatch(/^Step 10 of 12 · Hazardous .*…$/);
  });

  it('counts characters, not UTF-16 units, and never cuts an emoji in half', () => {
    const label = updateLabels.stepSaved({ index: 0, count: 3, name: '🦺'.repeat(40) });
    expect(labelLength(label)).toBe(PARTNER_LABEL_MAX);
    expect(label).toMatch(/^Step 1 of 3 · (🦺)+…$/u);
    // encodeURIComponent throws on a lone surrogate, i.e. half a character.
    expect(() => encodeURIComponent(label)).not.toThrow();
    expect(partnerTaskUpdateSchema.shape.partnerStatus.unwrap().shape.label.safeParse('🦺'.repeat(32)).success).toBe(true);
    expect(partnerTaskUpdateSchema.shape.partnerStatus.unwrap().shape.label.safeParse('🦺'.repeat(33)).success).toBe(false);
  });

  it('never exceeds 32 characters, whatever the prefix and name (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60, unit: 'binary' }), fc.string({ maxLength: 200, unit: 'binary' }), (prefix, name) => {
        expect(labelLength(fitLabel(prefix, name))).toBeLessThanOrEqual(PARTNER_LABEL_MAX);
      }),
    );
  });

  it('builds valid spec 2.6 records for every moment of a workflow with arbitrary step names (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 80 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (names, attempt) => {
          const workflow: WorkflowDefinition = {
            ...safetyTraining,
            steps: names.map((shortName, index) => ({ ...safetyTraining.steps[0]!, id: `s${index}`, shortName })),
          };
          const report = { color: 'neutral' as const, details: 'd' };
          const records = [
            openedUpdate(target),
            startedUpdate(target, workflow, attempt),
            ...names.map((_, index) => stepSavedUpdate(target, workflow, onStep(workflow, index), report)),
            ...names.map((_, index) =>
              gradedRetryUpdate(target, workflow, onStep(workflow, index), { score: 1, total: 5 }, { used: 1, max: 3, passMark: 4 }),
            ),
            failedUpdate(target, names[0]!, [{ score: 0, total: 5 }], { passMark: 4, maxAttempts: 3 }),
            restartedUpdate(target, attempt),
          ];
          for (const record of records) {
            expect(partnerTaskUpdateSchema.safeParse({ ...record, sentAt: '2026-01-01T00:00:00.000Z' }).success).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** The task on step `index` of a workflow without branches: every step before it answered. */
function onStep(workflow: WorkflowDefinition, index: number) {
  const stepData = Object.fromEntries(workflow.steps.slice(0, index).map((step) => [step.id, {}]));
  const stepId = workflow.steps[index]!.id;
  return { stepData, stepId, nextStepId: stepId };
}
