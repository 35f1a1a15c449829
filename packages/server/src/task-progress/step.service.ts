import type { ZodMiniType } from 'zod/mini';
import type { TaskContext, GradingResult, TaskView } from '@partner-task-kit/workflow/contract';
import { stepById } from '@partner-task-kit/workflow';
import { currentOffer } from '../offers/offer-basis.ts';
import { sealStepData } from '../sensitive/step-data-sealing.ts';
import { checkFileAnswers } from './file-answers.ts';
import { keepSavedUploads } from './saved-uploads.ts';
import { decideBack, decideStepSubmission, type GradedOutcome } from './step-decision.ts';
import { completedUpdate, failedUpdate, gradedRetryUpdate, stepSavedUpdate, wentBackUpdate } from './status-updates.ts';
import { withLockedTask, type TaskServiceDeps } from './locked-task.ts';
import { failedTries, formatFailure } from './task-view.ts';

export interface StepSubmissionOutcome {
  task: TaskView;
  grading?: GradingResult;
  /** True when this submission completed the task: the route then tells the page to fire the end event. */
  completed: boolean;
}

/**
 * Saves one step in one transaction: the task row, its history and the update to send (docs/architecture.md#the-path-of-an-update). The
 * answer is sent before anything reaches the platform; the outbox relay delivers later.
 */
export function submitStep(deps: TaskServiceDeps, context: TaskContext, stepId: string, data: unknown): Promise<StepSubmissionOutcome> {
  return withLockedTask(deps, context, async (locked) => {
    const { workflow, target } = locked;
    let task = locked.task;
    const history = await locked.history();
    const step = stepById(workflow, stepId);
    const offer = step ? await currentOffer(locked.trx, { workflow, task, step }) : undefined;
    const decided = decideStepSubmission({
      workflow,
      server: deps.workflows.find(workflow.id)?.server,
      task,
      stepId,
      data,
      earlierFailures: failedTries(history, task.attempt, stepId),
      today: new Date(locked.now).toISOString().slice(0, 10),
      offer: offer?.offer,
    });
    // A file field's id must name this attempt's upload (docs/api.md#uploads): checked before anything is saved, and
    // kept from now on with the answers (docs/operations.md#files).
    if (step) {
      const files = await checkFileAnswers(locked.trx, task, step, decided.stepData[stepId]);
      await keepSavedUploads(locked.trx, { taskId: task.id, files, now: locked.now });
    }
    // Sealed before anything is saved or sent: the clear value of a sensitive field stays in this request only.
    const decision = step ? { ...decided, stepData: await sealAnswer(deps, step.schema, decided.stepData, stepId) } : decided;
    // A step saved before `start` is still the attempt's first interaction (docs/platform.md#statuses-and-transitions: ready -> inProgress). The step's
    // own update below says so: every one has taskStatus inProgress or the end state it reached, which docs/platform.md#statuses-and-transitions accepts
    // from any state. A separate "started" before it would be a second update for one click.
    task = await locked.startAttempt({ carriedBy: 'step update' });
    const attempt = task.attempt;

    let grading: GradingResult | undefined;
    switch (decision.kind) {
      case 'advanced': {
        task = await locked.save(task, { stepData: decision.stepData, currentStep: decision.nextStepId });
        await locked.enqueue(stepSavedUpdate(target, workflow, decision, decision.report));
        await locked.record({ attempt, kind: 'step_saved', stepId, ...scoreDetail(decision.grade) });
        grading = decision.grade && toGradingResult(decision.grade);
        break;
      }
      case 'completed': {
        task = await locked.save(task, { stepData: decision.stepData, currentStep: null, status: 'completed' });
        await locked.enqueue(completedUpdate(target, decision.report));
        await locked.record({ attempt, kind: 'step_saved', stepId });
        await locked.record({ attempt, kind: 'completed' });
        break;
      }
      case 'retry': {
        // The answers are kept so the worker resumes with them after a reload.
        const { grade } = decision;
        task = await locked.save(task, { stepData: decision.stepData });
        const rules = { used: grade.used, max: grade.rules.maxAttempts, passMark: grade.rules.passMark };
        await locked.enqueue(gradedRetryUpdate(target, workflow, { stepData: decision.stepData, stepId }, grade, rules));
        await locked.record({ attempt, kind: 'graded_step_failed', stepId, ...scoreDetail(grade) });
        grading = toGradingResult(grade);
        break;
      }
      case 'failed': {
        const { grade } = decision;
        const failure = formatFailure({ reason: 'attempts_exhausted', stepId });
        task = await locked.save(task, { stepData: decision.stepData, status: 'error', failedReason: failure });
        const scores = [...failedTries(history, attempt, stepId), grade];
        const stepName = stepById(workflow, stepId)?.shortName ?? stepId;
        await locked.enqueue(failedUpdate(target, stepName, scores, grade.rules));
        await locked.record({ attempt, kind: 'graded_step_failed', stepId, ...scoreDetail(grade) });
        await locked.record({ attempt, kind: 'failed', stepId });
        grading = toGradingResult(grade);
        break;
      }
    }
    return { task: await locked.view(task), completed: decision.kind === 'completed', ...(grading ? { grading } : {}) };
  });
}

/**
 * "Back" (docs/api.md#post-apitaskback): the task moves to the step before on its path, with every answer kept; the
 * platform's panel follows the worker there (one update), and the partner hears nothing (no answer changed).
 */
export function goBack(deps: TaskServiceDeps, context: TaskContext, from: string): Promise<TaskView> {
  return withLockedTask(deps, context, async (locked) => {
    const { workflow, target } = locked;
    const { previousStepId } = decideBack({ workflow, task: locked.task, from });
    const task = await locked.save(locked.task, { currentStep: previousStepId });
    await locked.enqueue(wentBackUpdate(target, workflow, { stepData: task.stepData, stepId: previousStepId }));
    await locked.record({ attempt: task.attempt, kind: 'went_back', stepId: previousStepId });
    return locked.view(task);
  });
}

/** The answers with the step's own answer's sensitive fields sealed. */
async function sealAnswer(deps: TaskServiceDeps, schema: ZodMiniType, stepData: Record<string, unknown>, stepId: string) {
  return { ...stepData, [stepId]: await sealStepData(deps.sensitiveKeys, schema, stepData[stepId]) };
}

function scoreDetail(grade: GradedOutcome | undefined) {
  return grade ? { detail: { score: grade.score, total: grade.total } } : {};
}

function toGradingResult(grade: GradedOutcome): GradingResult {
  return {
    passed: grade.passed,
    score: grade.score,
    total: grade.total,
    passMark: grade.rules.passMark,
    attemptsLeft: grade.passed ? 0 : Math.max(0, grade.rules.maxAttempts - grade.used),
  };
}
