import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.ts';
import type { StepDefinition, WorkflowDefinition } from '@partner-task-kit/workflow/workflow-definition';
import { answersBefore } from '@partner-task-kit/workflow/workflow-path';
import { withoutSensitive } from '../sensitive/sensitive-values.ts';
import type { StoreDb } from '../store/database-schema.ts';
import { findStoredOffer } from '../store/task-offers.repository.ts';
import type { Task } from '../store/tasks.table.ts';

/**
 * The answers an offer is loaded for: those of the steps it names in `dependsOn`, or every earlier answer on the
 * path, never a sensitive value (docs/connecting-your-backend.md#offers). They are sent to the partner's backend.
 */
export function offerAnswers(
  workflow: WorkflowDefinition,
  stepData: Readonly<Record<string, unknown>>,
  step: StepDefinition,
): Record<string, unknown> {
  const earlier = withoutSensitive(answersBefore(workflow, stepData, step.id));
  const named = step.offer?.dependsOn;
  return named === undefined ? earlier : Object.fromEntries(Object.entries(earlier).filter(([id]) => named.includes(id)));
}

/** A stored offer holds while the task is in the attempt and the answers it was loaded for are unchanged. */
export function offerBasis(answers: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(answers)).digest('base64url');
}

/**
 * The offer the worker may answer now: the one stored for the task's step, if it was loaded in this attempt for the
 * answers the task holds now; undefined otherwise (never loaded, or loaded before an answer it depends on changed).
 */
export async function currentOffer(
  db: StoreDb,
  input: { workflow: WorkflowDefinition; task: Pick<Task, 'id' | 'attempt' | 'stepData'>; step: StepDefinition },
): Promise<{ offer: unknown; basis: string; loadedAt: number } | undefined> {
  const { workflow, task, step } = input;
  if (!step.offer) return undefined;
  const basis = offerBasis(offerAnswers(workflow, task.stepData, step));
  const stored = await findStoredOffer(db, { taskId: task.id, stepId: step.id });
  return stored && stored.attempt === task.attempt && stored.basis === basis
    ? { offer: stored.offer, basis, loadedAt: stored.loadedAt }
    : undefined;
}
