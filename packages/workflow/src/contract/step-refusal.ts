import { currentStepOf, type StepPosition } from './step-rules.ts';
import { isClosed } from './task-status.ts';

/** Why a task cannot take a step now; undefined when it can. */
export interface StepRefusal {
  code: 'task_closed' | 'invalid_step' | 'step_out_of_order';
  message: string;
  field?: 'stepId';
}

/**
 * The one rule for which step a task takes: the server applies it to every submission, and the page to one it made
 * before it knew the task (the prerendered first screen), so as not to send what would only be refused.
 */
export function stepRefusal(position: StepPosition, stepId: string): StepRefusal | undefined {
  if (isClosed(position.status)) {
    return { code: 'task_closed', message: `This task is ${position.status}; start again to make a new attempt.` };
  }
  if (!position.steps.some((step) => step.id === stepId)) {
    return { code: 'invalid_step', message: `The workflow has no step "${stepId}".`, field: 'stepId' };
  }
  const current = currentStepOf(position);
  if (current !== stepId) {
    const message = `Step "${stepId}" cannot be saved now: the current step is "${current ?? 'none'}".`;
    return { code: 'step_out_of_order', message, field: 'stepId' };
  }
  if (position.steps.find((step) => step.id === stepId)?.completedBy === 'partner') {
    return { code: 'step_out_of_order', message: `Step "${stepId}" is completed by the partner, not on this page.`, field: 'stepId' };
  }
  return undefined;
}
