import { stepRefusal, currentStepOf, isClosed } from '@partner-task-kit/workflow/contract';
import {
  type Grade,
  type GradingRules,
  type StepReport,
  type WorkflowDefinition,
  type WorkflowServerModule,
  answersBefore,
  answersKept,
  nextStepId,
  previousStepId,
  stepById,
} from '@partner-task-kit/workflow';
import type { Task } from '../store/tasks.table.ts';
import { apiError } from '../api-error.ts';
import { maskStepData } from '../sensitive/step-data-sealing.ts';
import { maskSealed } from '../sensitive/sensitive-values.ts';

/**
 * The workflow engine's one decision, as a pure function: given a task and a submission, what changes and what is
 * reported. The service runs it inside the transaction and writes what it returns (docs/decisions/001-the-server-is-the-authority.md: the server
 * is the authority; the page only proposes).
 */
export interface StepSubmissionInput {
  workflow: WorkflowDefinition;
  server: WorkflowServerModule | undefined;
  task: Task;
  stepId: string;
  data: unknown;
  /** Scores of earlier failed tries of this step in this attempt, oldest first. */
  earlierFailures: readonly Grade[];
  /** The server's date (UTC, YYYY-MM-DD), for a step's check against today. */
  today: string;
  /** The offer the worker was shown for this step (docs/connecting-your-backend.md#offers); undefined when none was loaded. */
  offer?: unknown;
}

export type StepDecision =
  | { kind: 'advanced'; stepData: Record<string, unknown>; nextStepId: string; report: StepReport; grade?: GradedOutcome }
  | { kind: 'completed'; stepData: Record<string, unknown>; report: StepReport }
  | { kind: 'retry'; stepData: Record<string, unknown>; grade: GradedOutcome }
  | { kind: 'failed'; stepData: Record<string, unknown>; grade: GradedOutcome };

export interface GradedOutcome extends Grade {
  passed: boolean;
  rules: GradingRules;
  /** Tries of this step used in this attempt, this one included. */
  used: number;
}

/** 400 invalid_step_data naming the field, as the page shows it in place. */
function invalidStepData(issuePath: readonly PropertyKey[] | undefined, message: string | undefined) {
  const path = ['data', ...(issuePath ?? []).map(String)].join('.');
  return apiError('invalid_step_data', `${path} ${message ?? 'is invalid'}`, path);
}

export function decideStepSubmission(input: StepSubmissionInput): StepDecision {
  const { workflow, task, stepId } = input;
  const refusal = stepRefusal({ status: task.status, currentStep: task.currentStep, steps: workflow.steps }, stepId);
  if (refusal) throw apiError(refusal.code, refusal.message, refusal.field);
  const step = stepById(workflow, stepId)!;
  const parsed = step.schema.safeParse(input.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidStepData(issue?.path, issue?.message);
  }
  // The answers before this step on the path: what its check and the conditions after it may read.
  const earlier = answersBefore(workflow, task.stepData, stepId);
  // Earlier sensitive answers are stored sealed: a check and a condition read them masked, as strings.
  const problem = step.check?.(parsed.data, { answers: maskSealed(earlier), today: input.today });
  if (problem) throw invalidStepData(problem.path, problem.message);
  if (step.offer) {
    if (input.offer === undefined) {
      throw apiError(
        'offer_not_loaded',
        `Step "${stepId}" answers an offer that was not loaded: load it again and choose from it.`,
        'stepId',
      );
    }
    const outside = step.offer.check(parsed.data, input.offer);
    if (outside) throw invalidStepData(outside.path, outside.message);
  }

  // The later answers stay while their steps may still be on the path (shown again, filled in, as the worker reaches
  // them); those of a branch this answer leaves are dropped.
  const stepData = answersKept(workflow, { ...earlier, ...laterAnswers(task.stepData, earlier, stepId), [step.id]: parsed.data });

  let graded: GradedOutcome | undefined;
  if (step.grading) {
    const grader = input.server?.graders[step.id];
    if (!grader) throw new Error(`workflow ${workflow.id} grades step ${step.id} but has no grader in its server module`);
    const grade = grader(parsed.data);
    const used = input.earlierFailures.length + 1;
    graded = { ...grade, passed: grade.score >= step.grading.passMark, rules: step.grading, used };
    if (!graded.passed) {
      // docs/platform.md#statuses-and-transitions: out of attempts is the `error` state, irrevocable until a restart.
      return used >= step.grading.maxAttempts ? { kind: 'failed', stepData, grade: graded } : { kind: 'retry', stepData, grade: graded };
    }
  }

  // A report becomes the platform's update: it sees sensitive fields masked (docs/connecting-your-backend.md#sensitive-values).
  const report = step.report(maskStepData(step.schema, parsed.data), graded);
  const next = nextStepId(workflow, step, { ...maskSealed(earlier), [step.id]: parsed.data });
  if (next === null) return { kind: 'completed', stepData, report };
  return { kind: 'advanced', stepData, nextStepId: next, report, ...(graded ? { grade: graded } : {}) };
}

/** The saved answers that are not among `earlier` nor the step's own: those of steps after it. */
function laterAnswers(stepData: Readonly<Record<string, unknown>>, earlier: Readonly<Record<string, unknown>>, stepId: string) {
  return Object.fromEntries(Object.entries(stepData).filter(([id]) => id !== stepId && !Object.hasOwn(earlier, id)));
}

/**
 * A step moves the task back one step on its path ("Back", docs/api.md#post-apitaskback): the answers stay, and the
 * step before is shown again with its answer to edit. Refused on the first step, from a step the partner completes
 * (the partner was already asked), and from any step but the current one (a second tab's stale "Back").
 */
export function decideBack(input: { workflow: WorkflowDefinition; task: Task; from: string }): { previousStepId: string } {
  const { workflow, task, from } = input;
  if (isClosed(task.status)) throw apiError('task_closed', `This task is ${task.status}; start again to make a new attempt.`);
  const current = currentStepOf({ currentStep: task.currentStep, steps: workflow.steps });
  if (current !== from) {
    throw apiError('step_out_of_order', `Cannot go back from "${from}": the current step is "${current ?? 'none'}".`, 'from');
  }
  if (stepById(workflow, from)?.completedBy === 'partner') {
    throw apiError('back_not_allowed', `Step "${from}" awaits the partner: the worker cannot go back from it.`, 'from');
  }
  const previous = previousStepId(workflow, task.stepData, from);
  if (previous === undefined) throw apiError('back_not_allowed', `Step "${from}" is the first step: there is no step before it.`, 'from');
  return { previousStepId: previous };
}
