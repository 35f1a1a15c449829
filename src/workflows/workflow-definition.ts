import type { ZodMiniType } from 'zod/mini';
import type { PartnerStatusColor } from '../contract/partner-task-update';

/** A graded step's outcome, computed on the server only (the answer key never reaches the browser). */
export interface Grade {
  score: number;
  total: number;
}

/** spec 3: running out of attempts is the `error` state; the worker must restart or the task is abandoned. */
export interface GradingRules {
  passMark: number;
  maxAttempts: number;
}

/** What a step reports to the platform when it is saved (spec 2.6 partnerStatus). The label is built by the engine. */
export interface StepReport {
  color: PartnerStatusColor;
  /** Free text for the admin's task panel: what just happened. */
  details: string;
}

/**
 * One step of a workflow, shared by the page and the server (DESIGN decision 1). Methods (not function properties)
 * so that steps with different data types fit in one list.
 */
export interface StepDefinition<Data = unknown> {
  id: string;
  /** The name in status labels, "Step 2 of 4 · Policy"; cut to fit 32 characters (spec 8) by `fitLabel`. */
  shortName: string;
  /** The data the worker submits; the server rejects anything else with 400 invalid_step_data. */
  schema: ZodMiniType<Data>;
  /** Present on steps graded by the server; the grader lives in the workflow's server module. */
  grading?: GradingRules;
  report(data: Data, grade: Grade | undefined): StepReport;
}

export interface WorkflowDefinition {
  id: string;
  /** Shown on the welcome screen; matches the task's "estimated completion time" in the platform (spec 2.4). */
  estimatedMinutes: number;
  /** In order; the last step's success completes the task. */
  steps: readonly StepDefinition[];
}

/** Keeps each step's data type while listing it among the others. */
export function defineStep<Data>(step: StepDefinition<Data>): StepDefinition {
  return step as StepDefinition;
}

/** The server-only half of a workflow (`definition.server.ts`): graders that hold the secrets. */
export interface WorkflowServerModule {
  graders: Record<string, (data: unknown) => Grade>;
}
