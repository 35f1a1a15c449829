import type { ZodMiniType } from 'zod/mini';
import type { PartnerStatusColor } from '../contract/partner-task-update';

/** A graded step's outcome, computed on the server only (the answer key never reaches the browser). */
export interface Grade {
  score: number;
  total: number;
}

/** docs/platform.md#statuses-and-transitions: running out of attempts is the `error` state; the worker must restart or the task is abandoned. */
export interface GradingRules {
  passMark: number;
  maxAttempts: number;
}

/** What a step reports to the platform when it is saved (docs/platform.md#partner-task-update-record partnerStatus). The label is built by the engine. */
export interface StepReport {
  color: PartnerStatusColor;
  /** Free text for the admin's task panel: what just happened. */
  details: string;
  /** The result fails the task (a partner's check that did not pass): the attempt ends in `error`. */
  failed?: boolean;
}

/**
 * One step of a workflow, shared by the page and the server. Methods (not function properties) so that steps with
 * different data types fit in one list.
 */
export interface StepDefinition<Data = unknown> {
  id: string;
  /** The name in status labels, "Step 2 of 4 · Policy"; cut to fit 32 characters (docs/platform.md#limits) by `fitLabel`. */
  shortName: string;
  /** The data the worker submits; the server rejects anything else with 400 invalid_step_data. */
  schema: ZodMiniType<Data>;
  /** Present on steps graded by the server; the grader lives in the workflow's server module. */
  grading?: GradingRules;
  /**
   * Who completes the step: the worker on the page (the default), or the partner's own backend through the partner
   * API (docs/connecting-your-backend.md), hours later perhaps: the worker sees the step's waiting screen meanwhile.
   */
  completedBy?: 'worker' | 'partner';
  /** A partner step: what the platform's panel shows while the partner works (its colour and details). */
  awaiting?: StepReport;
  /**
   * A partner step: results the preview's "Partner backend" panel offers as buttons, each sent through the partner API
   * as your backend would send it. Only for the preview; the schema alone decides what the API accepts.
   */
  previewResults?: readonly { label: string; data: Data }[];
  report(data: Data, grade: Grade | undefined): StepReport;
}

/**
 * `Id` is the workflow's own id as a literal type (`WorkflowDefinition<'availability'>`), so that the registry can
 * check that each definition sits under its own id; code that takes any workflow uses the default, `string`.
 */
export interface WorkflowDefinition<Id extends string = string> {
  id: Id;
  /**
   * What an admin would call the task in the platform (English, like the reports): the preview portal's default title
   * for a new assignment of this workflow. The worker sees the step titles of the workflow's texts, not this.
   */
  title: string;
  /** Shown on the welcome screen; matches the task's "estimated completion time" in the platform (docs/platform.md#partner-task-configuration). */
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
