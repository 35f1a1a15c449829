import { isClosed } from './task-status.ts';

/** Enough of a task to judge a step against it: its status, its current step, its workflow's step ids in order. */
export interface StepPosition {
  status: string;
  currentStep: string | null;
  steps: readonly { id: string; completedBy?: 'worker' | 'partner' | undefined }[];
}

/** The step a task that is not closed is on: the current one, or the first while it has saved none this attempt. */
export function currentStepOf(position: Pick<StepPosition, 'currentStep' | 'steps'>): string | undefined {
  return position.currentStep ?? position.steps[0]?.id;
}

/** The task waits on its partner's backend: its current step is one the partner completes (docs/connecting-your-backend.md). */
export function awaitsPartner(position: Pick<StepPosition, 'status' | 'currentStep' | 'steps'>): boolean {
  if (isClosed(position.status)) return false;
  const current = currentStepOf(position);
  return position.steps.find((step) => step.id === current)?.completedBy === 'partner';
}
