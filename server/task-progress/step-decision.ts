import { stepRefusal } from '../../src/contract/step-refusal';
import type { Grade, GradingRules, StepReport, WorkflowDefinition, WorkflowServerModule } from '../../src/workflows/workflow-definition';
import type { Task } from '../store/tasks.table';
import { apiError } from '../api-error';

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
}

export type StepDecision =
  | { kind: 'advanced'; stepData: Record<string, unknown>; nextIndex: number; report: StepReport; grade?: GradedOutcome }
  | { kind: 'completed'; stepData: Record<string, unknown>; report: StepReport }
  | { kind: 'retry'; stepIndex: number; stepData: Record<string, unknown>; grade: GradedOutcome }
  | { kind: 'failed'; stepIndex: number; stepData: Record<string, unknown>; grade: GradedOutcome };

export interface GradedOutcome extends Grade {
  passed: boolean;
  rules: GradingRules;
  /** Tries of this step used in this attempt, this one included. */
  used: number;
}

export function decideStepSubmission(input: StepSubmissionInput): StepDecision {
  const { workflow, task, stepId } = input;
  const refusal = stepRefusal({ status: task.status, currentStep: task.currentStep, steps: workflow.steps }, stepId);
  if (refusal) throw apiError(refusal.code, refusal.message, refusal.field);
  const index = workflow.steps.findIndex((step) => step.id === stepId);
  const step = workflow.steps[index]!;
  const parsed = step.schema.safeParse(input.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['data', ...(issue?.path ?? [])].join('.');
    throw apiError('invalid_step_data', `${path} ${issue?.message ?? 'is invalid'}`, path);
  }
  const stepData = { ...task.stepData, [step.id]: parsed.data };

  let graded: GradedOutcome | undefined;
  if (step.grading) {
    const grader = input.server?.graders[step.id];
    if (!grader) throw new Error(`workflow ${workflow.id} grades step ${step.id} but has no grader in its server module`);
    const grade = grader(parsed.data);
    const used = input.earlierFailures.length + 1;
    graded = { ...grade, passed: grade.score >= step.grading.passMark, rules: step.grading, used };
    if (!graded.passed) {
      // docs/platform.md#statuses-and-transitions: out of attempts is the `error` state, irrevocable until a restart.
      return used >= step.grading.maxAttempts
        ? { kind: 'failed', stepIndex: index, stepData, grade: graded }
        : { kind: 'retry', stepIndex: index, stepData, grade: graded };
    }
  }

  const report = step.report(parsed.data, graded);
  if (index === workflow.steps.length - 1) return { kind: 'completed', stepData, report };
  return { kind: 'advanced', stepData, nextIndex: index + 1, report, ...(graded ? { grade: graded } : {}) };
}
