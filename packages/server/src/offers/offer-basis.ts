import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.ts';
import { type StepDefinition, type WorkflowDefinition, answersBefore } from '@partner-task-kit/workflow';
import { withoutSensitive } from '../sensitive/sensitive-values.ts';
import type { StoreDb } from '../store/database-schema.ts';
import { deleteOffersOfSteps, findStoredOffer, type StoredOffer } from '../store/task-offers.repository.ts';
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

/**
 * The answers an offer was loaded for, as a hash kept with it. A kept offer holds while the task is in its attempt and
 * no answer it depends on has changed since it was loaded: every change deletes it (dropOutgrownOffers), so answers
 * changed and changed back (A, B, A) load a new offer rather than find the one loaded for A; the hash still guards a
 * load that ends after such a change began.
 */
export function offerBasis(answers: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(answers)).digest('base64url');
}

/**
 * Called whenever a task's answers change (locked-task.ts), in the same transaction: the kept offers of the steps
 * whose answers they depend on changed are deleted, whatever they changed to (docs/connecting-your-backend.md#offers).
 */
export async function dropOutgrownOffers(
  db: StoreDb,
  input: {
    workflow: WorkflowDefinition;
    taskId: string;
    before: Readonly<Record<string, unknown>>;
    after: Readonly<Record<string, unknown>>;
  },
): Promise<void> {
  const { workflow, before, after } = input;
  const outgrown = workflow.steps
    .filter((step) => step.offer && offerBasis(offerAnswers(workflow, before, step)) !== offerBasis(offerAnswers(workflow, after, step)))
    .map((step) => step.id);
  await deleteOffersOfSteps(db, { taskId: input.taskId, stepIds: outgrown });
}

/**
 * The offer the worker may answer now: the one stored for the task's step, if it was loaded in this attempt for the
 * answers the task holds now; undefined otherwise (never loaded, or loaded before an answer it depends on changed).
 */
export async function currentOffer(
  db: StoreDb,
  input: { workflow: WorkflowDefinition; task: Pick<Task, 'id' | 'attempt' | 'stepData'>; step: StepDefinition },
): Promise<StoredOffer | undefined> {
  const { workflow, task, step } = input;
  if (!step.offer) return undefined;
  const basis = offerBasis(offerAnswers(workflow, task.stepData, step));
  const stored = await findStoredOffer(db, { taskId: task.id, stepId: step.id });
  return stored && stored.attempt === task.attempt && stored.basis === basis ? stored : undefined;
}
