import type { PartnerTaskUpdateRecord } from '../store/outbox.repository';
import type { Grade, StepReport, WorkflowDefinition } from '../../src/workflows/workflow-definition';
import { fitLabel, stepLabel } from '../../src/workflows/status-label';

/**
 * The spec 2.6 records a task sends, one builder per moment of issue 4 item 5. Labels are composed by `fitLabel`,
 * so they stay within 32 characters (spec 8) by construction; texts are in English for the admin's back office.
 */
export interface UpdateTarget {
  /** spec 2.6 partnerId: our task record's id. */
  taskId: string;
  /** spec 2.6 partnerUrl, from PARTNER_URL_TEMPLATE when set. */
  partnerUrl: string | undefined;
}

function record(target: UpdateTarget, taskStatus: PartnerTaskUpdateRecord['taskStatus'], partnerStatus: NonNullable<PartnerTaskUpdateRecord['partnerStatus']>): PartnerTaskUpdateRecord {
  return {
    taskStatus,
    partnerId: target.taskId,
    ...(target.partnerUrl === undefined ? {} : { partnerUrl: target.partnerUrl }),
    partnerStatus,
  };
}

export function openedUpdate(target: UpdateTarget): PartnerTaskUpdateRecord {
  return record(target, 'ready', { label: 'Opened', color: 'neutral', details: 'The worker opened the task.' });
}

/** The first interaction of an attempt (spec 3: ready -> inProgress when the worker starts interacting). */
export function startedUpdate(target: UpdateTarget, workflow: WorkflowDefinition, attempt: number): PartnerTaskUpdateRecord {
  const first = workflow.steps[0];
  return record(target, 'inProgress', {
    label: stepLabel(0, workflow.steps.length, first?.shortName ?? ''),
    color: 'neutral',
    details: attempt === 1 ? 'The worker started the task.' : `The worker started attempt ${attempt}.`,
  });
}

/** A step was saved: the label names the step the worker is on now, the details what was just done. */
export function stepSavedUpdate(target: UpdateTarget, workflow: WorkflowDefinition, nextIndex: number, report: StepReport): PartnerTaskUpdateRecord {
  const next = workflow.steps[nextIndex];
  return record(target, 'inProgress', {
    label: stepLabel(nextIndex, workflow.steps.length, next?.shortName ?? ''),
    color: report.color,
    details: report.details,
  });
}

export function completedUpdate(target: UpdateTarget, report: StepReport): PartnerTaskUpdateRecord {
  return record(target, 'completed', { label: 'Completed', color: 'success', details: report.details });
}

export function gradedRetryUpdate(
  target: UpdateTarget,
  workflow: WorkflowDefinition,
  stepIndex: number,
  grade: Grade,
  attempt: { used: number; max: number; passMark: number },
): PartnerTaskUpdateRecord {
  const step = workflow.steps[stepIndex];
  return record(target, 'inProgress', {
    label: fitLabel(`Step ${stepIndex + 1} of ${workflow.steps.length}`, `${step?.shortName ?? ''} retry`),
    color: 'warning',
    details: `${step?.shortName ?? 'Graded step'} attempt ${attempt.used} of ${attempt.max} scored ${grade.score}/${grade.total} (pass mark ${attempt.passMark}); the worker may try again.`,
  });
}

/** spec 3 `error`: irrevocably problematic until restarted. The details tell the admin what happened and what to do. */
export function failedUpdate(
  target: UpdateTarget,
  stepName: string,
  scores: readonly Grade[],
  rules: { passMark: number; maxAttempts: number },
): PartnerTaskUpdateRecord {
  const listed = scores.map((grade) => `${grade.score}/${grade.total}`).join(', ');
  return record(target, 'error', {
    label: fitLabel('Failed', stepName),
    color: 'danger',
    details:
      `The worker did not pass the ${stepName.toLowerCase()} in ${rules.maxAttempts} attempts (scores ${listed}; pass mark ${rules.passMark}). ` +
      'Reset the task, or ask the worker to choose "Start again", to allow a new attempt.',
  });
}

/** Restart sends `ready`: spec 3 and 4.3 rule 5, this clears an earlier review on the platform. */
export function restartedUpdate(target: UpdateTarget, attempt: number): PartnerTaskUpdateRecord {
  return record(target, 'ready', {
    label: fitLabel('Restarted', `attempt ${attempt}`),
    color: 'neutral',
    details: `The worker chose to start again; attempt ${attempt} begins with no saved answers.`,
  });
}

export function partnerUrlFor(template: string | undefined, assignedTaskUuid: string): string | undefined {
  return template?.replaceAll('{assignedTaskUuid}', encodeURIComponent(assignedTaskUuid));
}
