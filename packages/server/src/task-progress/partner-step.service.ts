import { canonicalUuid, type LocalisedText, type TaskView } from '@partner-task-kit/workflow/contract';
import { answersBefore, nextStepId, stepById } from '@partner-task-kit/workflow';
import { apiError } from '../api-error.ts';
import { maskStepData, sealStepData } from '../sensitive/step-data-sealing.ts';
import { maskSealed } from '../sensitive/sensitive-values.ts';
import type { Task } from '../store/tasks.table.ts';
import { withTaskLocked, type TaskServiceDeps } from './locked-task.ts';
import { taskNotFound } from './partner-task-access.ts';

import { completedUpdate, partnerFailedUpdate, stepSavedUpdate } from './status-updates.ts';
import { formatFailure } from './task-view.ts';

export interface PartnerStepInput {
  /** As the partner sent it; compared without letter case. */
  assignedTaskUuid: string;
  stepId: string;
  /** The request's `data`, unchecked: the step's own schema judges it. */
  data: unknown;
  /** For the worker, with a result that fails the step: stored in the history's `failed` entry, shown on the failure screen. */
  workerMessage?: LocalisedText | undefined;
  /** The companies the partner key may act for; undefined: any (a key outside tenant mode without a company). */
  companies?: ReadonlySet<string> | undefined;
}

export interface PartnerStepOutcome {
  task: TaskView;
  /** The task moved to `completed` or `error`: the worker's open page shows the end. */
  ended: boolean;
}

/**
 * The partner's backend completes a step that awaits it (a check finished hours after the worker left). The engine
 * decides as for a worker's step: the next step, `completed` after the last, or `error` when the step's report says
 * the result failed; one platform update in the same transaction as the change (docs/decisions/002-outbox-not-dual-writes.md).
 */
export function resolveAwaitedStep(deps: TaskServiceDeps, input: PartnerStepInput): Promise<PartnerStepOutcome> {
  const { stepId } = input;
  // Another company's task answers as an unknown one does: a key learns nothing of tasks it may not see.
  const admit = (task: Task) => {
    if (input.companies !== undefined && !input.companies.has(canonicalUuid(task.companyUuid))) throw taskNotFound();
  };
  return withTaskLocked(deps, { assignedTaskUuid: input.assignedTaskUuid, missing: taskNotFound, admit }, async (locked) => {
    const { workflow, target } = locked;
    let task = locked.task;
    const step = stepById(workflow, stepId);
    const awaiting = task.status === 'inProgress' && task.currentStep === stepId && step?.completedBy === 'partner';
    if (!step || !awaiting) {
      // A restart cancels the wait: the old attempt's step is no longer awaited, whatever the partner found.
      throw apiError('step_not_awaiting_partner', `Step "${stepId}" of this task does not await the partner now.`, 'stepId');
    }
    const parsed = step.schema.safeParse(input.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = ['data', ...(issue?.path ?? [])].join('.');
      throw apiError('invalid_step_data', `${path} ${issue?.message ?? 'is invalid'}`, path);
    }
    const report = step.report(maskStepData(step.schema, parsed.data), undefined);
    if (input.workerMessage !== undefined && !report.failed) {
      // The worker sees it only on the failure screen: one that no screen would show is a mistake to say at once.
      throw apiError(
        'worker_message_without_failure',
        'workerMessage is shown to the worker when the result fails the step; this result does not.',
        'workerMessage',
      );
    }
    const stepData = { ...task.stepData, [step.id]: await sealStepData(deps.sensitiveKeys, step.schema, parsed.data) };
    const next = nextStepId(workflow, step, { ...maskSealed(answersBefore(workflow, task.stepData, stepId)), [step.id]: parsed.data });
    const attempt = task.attempt;
    if (report.failed) {
      const failedReason = formatFailure({ reason: 'partner_failed', stepId });
      task = await locked.save(task, { stepData, status: 'error', failedReason, currentStep: null });
      await locked.enqueue(partnerFailedUpdate(target, step.shortName, report));
      await locked.record({ attempt, kind: 'step_saved', stepId });
      // Kept with the attempt's history, as a graded try's score is: the view of this attempt reads it back.
      const detail = input.workerMessage === undefined ? null : { workerMessage: input.workerMessage };
      await locked.record({ attempt, kind: 'failed', stepId, detail });
    } else if (next === null) {
      task = await locked.save(task, { stepData, status: 'completed', currentStep: null });
      await locked.enqueue(completedUpdate(target, report));
      await locked.record({ attempt, kind: 'step_saved', stepId });
      await locked.record({ attempt, kind: 'completed' });
    } else {
      task = await locked.save(task, { stepData, currentStep: next });
      await locked.enqueue(stepSavedUpdate(target, workflow, { stepData, nextStepId: next }, report));
      await locked.record({ attempt, kind: 'step_saved', stepId });
    }
    return { task: await locked.view(task), ended: task.status !== 'inProgress' };
  });
}
