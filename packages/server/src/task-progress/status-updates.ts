import {
  type PartnerTaskUpdateRecord,
  type PartnerStatusColor,
  updateKinds,
  updateLabels,
  type UpdateStepPosition,
  type UpdateKind,
} from '@partner-task-kit/workflow/contract';
import { type Answers, type Grade, type StepReport, type WorkflowDefinition, progressOf, stepById } from '@partner-task-kit/workflow';

/**
 * The docs/platform.md#partner-task-update-record record of each moment in `updateKinds` (the contract). Texts are in English, for the admin's back
 * office; the details say what happened and, where the admin must act, what to do.
 */
export interface UpdateTarget {
  /** docs/platform.md#partner-task-update-record partnerId: our task record's id. */
  taskId: string;
  /** docs/platform.md#partner-task-update-record partnerUrl, from PARTNER_URL_TEMPLATE when set. */
  partnerUrl: string | undefined;
}

function record(
  target: UpdateTarget,
  kind: UpdateKind,
  label: string,
  details: string,
  color?: PartnerStatusColor,
): PartnerTaskUpdateRecord {
  const { taskStatus, color: kindColor } = updateKinds[kind];
  const partnerColor = color ?? kindColor;
  return {
    taskStatus,
    partnerId: target.taskId,
    ...(target.partnerUrl === undefined ? {} : { partnerUrl: target.partnerUrl }),
    partnerStatus: { label, ...(partnerColor === undefined ? {} : { color: partnerColor }), details },
  };
}

/** "Step 3 of 6": the step's place on the task's path and the longest the path may be (workflow-path.ts). */
function positionOf(workflow: WorkflowDefinition, stepData: Answers, stepId: string): UpdateStepPosition {
  const { position, total } = progressOf(workflow, stepData, stepId);
  return { index: position - 1, count: total, name: stepById(workflow, stepId)?.shortName ?? '' };
}

export function openedUpdate(target: UpdateTarget): PartnerTaskUpdateRecord {
  return record(target, 'opened', updateLabels.opened(), 'The worker opened the task.');
}

export function startedUpdate(target: UpdateTarget, workflow: WorkflowDefinition, attempt: number): PartnerTaskUpdateRecord {
  const details = attempt === 1 ? 'The worker started the task.' : `The worker started attempt ${attempt}.`;
  return record(target, 'started', updateLabels.started(positionOf(workflow, {}, workflow.steps[0]?.id ?? '')), details);
}

/**
 * A step was saved: the label names the step the worker is on now, and the details say what was just done, then
 * that same step, so that the two read as one statement on the admin's panel (docs/platform.md#partner-task-update-record: the latest update appears
 * prominently) rather than a label about one step over details about the one before it.
 */
export function stepSavedUpdate(
  target: UpdateTarget,
  workflow: WorkflowDefinition,
  move: { stepData: Answers; nextStepId: string },
  report: StepReport,
): PartnerTaskUpdateRecord {
  const next = positionOf(workflow, move.stepData, move.nextStepId);
  const nextStep = stepById(workflow, move.nextStepId);
  const now = `Now on step ${next.index + 1} of ${next.count}${next.name ? ` (${next.name})` : ''}`;
  // A step the partner completes: the panel says what the partner is doing, in the colour that step reports for it.
  const awaiting = nextStep?.completedBy === 'partner' ? nextStep.awaiting : undefined;
  if (awaiting)
    return record(target, 'stepSaved', updateLabels.stepSaved(next), `${report.details} ${now}: ${awaiting.details}`, awaiting.color);
  return record(target, 'stepSaved', updateLabels.stepSaved(next), `${report.details} ${now}.`, report.color);
}

/** The partner's check of a step failed: the attempt ends in `error`, with the partner's details for the admin. */
export function partnerFailedUpdate(target: UpdateTarget, stepName: string, report: StepReport): PartnerTaskUpdateRecord {
  const details = `${report.details} Reset the task, or ask the worker to choose "Start again", to allow a new attempt.`;
  return record(target, 'failed', updateLabels.failed(stepName), details, report.color);
}

export function completedUpdate(target: UpdateTarget, report: StepReport): PartnerTaskUpdateRecord {
  return record(target, 'completed', updateLabels.completed(), report.details);
}

export function gradedRetryUpdate(
  target: UpdateTarget,
  workflow: WorkflowDefinition,
  at: { stepData: Answers; stepId: string },
  grade: Grade,
  attempt: { used: number; max: number; passMark: number },
): PartnerTaskUpdateRecord {
  const step = positionOf(workflow, at.stepData, at.stepId);
  const details = `${step.name || 'Graded step'} attempt ${attempt.used} of ${attempt.max} scored ${grade.score}/${grade.total} (pass mark ${attempt.passMark}); the worker may try again.`;
  return record(target, 'retry', updateLabels.retry(step), details);
}

export function failedUpdate(
  target: UpdateTarget,
  stepName: string,
  scores: readonly Grade[],
  rules: { passMark: number; maxAttempts: number },
): PartnerTaskUpdateRecord {
  const listed = scores.map((grade) => `${grade.score}/${grade.total}`).join(', ');
  const details =
    `The worker did not pass the ${stepName.toLowerCase()} in ${rules.maxAttempts} attempts (scores ${listed}; pass mark ${rules.passMark}). ` +
    'Reset the task, or ask the worker to choose "Start again", to allow a new attempt.';
  return record(target, 'failed', updateLabels.failed(stepName), details);
}

/** "Back": the worker returned to an earlier step to change its answer; the panel follows them there. */
export function wentBackUpdate(
  target: UpdateTarget,
  workflow: WorkflowDefinition,
  at: { stepData: Answers; stepId: string },
): PartnerTaskUpdateRecord {
  const step = positionOf(workflow, at.stepData, at.stepId);
  const details = `The worker went back to step ${step.index + 1} of ${step.count}${step.name ? ` (${step.name})` : ''} to change an answer.`;
  return record(target, 'stepSaved', updateLabels.stepSaved(step), details);
}

export function restartedUpdate(target: UpdateTarget, attempt: number): PartnerTaskUpdateRecord {
  return record(
    target,
    'restarted',
    updateLabels.restarted(attempt),
    `The worker chose to start again; attempt ${attempt} begins with no saved answers.`,
  );
}

export function partnerUrlFor(template: string | undefined, assignedTaskUuid: string): string | undefined {
  return template?.replaceAll('{assignedTaskUuid}', encodeURIComponent(assignedTaskUuid));
}
