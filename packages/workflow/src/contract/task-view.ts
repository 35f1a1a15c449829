import { z } from 'zod/mini';
import { isoDateTimeField, nonNegativeInt, positiveInt, taskStatusField } from './contract-fields.ts';

/** Step ids appear in URLs (`POST /api/task/steps/:stepId`): short, lower-case, kebab-case. */
export const stepIdSchema = z.string().check(z.regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be a step id such as "contact-details"'));

/** docs/api.md#the-task; `graded_step_failed`: a try of a graded step below its pass mark. */
const historyKinds = ['opened', 'started', 'step_saved', 'went_back', 'graded_step_failed', 'completed', 'failed', 'restarted'] as const;

/** Why an attempt ended in `error` (docs/platform.md#statuses-and-transitions: irrevocably problematic until restarted). */
/**
 * Texts by language tag, as the view carries a `LocalisedText` (worker-message.ts `asViewTexts`): the shape alone, a
 * record the page's first scripts already check. Not imported from worker-message.ts, whose rules (a union, refinements
 * and their messages) would then load with every first screen (docs/development.md#benchmarks).
 */
const viewTextsSchema = z.record(z.string(), z.string());

const taskFailureSchema = z.object({
  /** attempts_exhausted: a graded step failed too often; partner_failed: the partner's check of the step failed. */
  reason: z.enum(['attempts_exhausted', 'partner_failed']),
  stepId: stepIdSchema,
  /**
   * partner_failed: why, in the partner's words for the worker (the partner API's `workerMessage`,
   * docs/connecting-your-backend.md#steps-your-backend-completes); absent when the partner gave none. Never the
   * `details` sent to the platform.
   */
  workerMessage: z.optional(viewTextsSchema),
  /** What the worker can do now, from the step's definition (`failedNextStep`); absent: the page's own words. */
  nextStep: z.optional(viewTextsSchema),
});
export type TaskFailure = z.infer<typeof taskFailureSchema>;

/**
 * docs/platform.md#end-event: the end event's name and delivery format are not shown, so both come from the server's configuration
 * (END_EVENT, END_EVENT_FORMAT); the page posts it to each origin in `targetOrigins` exactly.
 */
export const endEventSchema = z.object({
  name: z.string().check(z.minLength(1)),
  format: z.enum(['string', 'object']),
  targetOrigins: z.array(z.string()),
});
export type EndEvent = z.infer<typeof endEventSchema>;

/** What `GET /api/task` returns: everything the page needs to render and resume, nothing secret. */
export const taskViewSchema = z.object({
  /** Our task record's id; it is the `partnerId` of every update (docs/platform.md#partner-task-update-record). */
  id: z.string(),
  assignedTaskUuid: z.string(),
  workflow: z.object({
    id: z.string(),
    estimatedMinutes: positiveInt,
    /** `completedBy: 'partner'`: the partner's backend completes the step; the worker waits (a waiting screen). */
    steps: z.array(z.object({ id: stepIdSchema, completedBy: z.optional(z.literal('partner')) })),
    /** Steps on the workflow's longest path: "Step 1 of N" before any answer (its branches may make a path shorter). */
    longestPath: z.optional(positiveInt),
  }),
  status: taskStatusField,
  attempt: positiveInt,
  /** True once the first interaction of this attempt was recorded (`POST /api/task/start`). */
  started: z.boolean(),
  /** The step to show; null once the attempt is over (completed or error). */
  currentStep: z.nullable(stepIdSchema),
  /**
   * "Step 3 of 6" for the current step: its place on the task's path, and the longest the path may be from there (a
   * branch ahead not yet decided counts at its longest). Null once the attempt is over.
   */
  progress: z.nullable(z.object({ position: positiveInt, total: positiveInt })),
  /** The current step offers "Back" (`POST /api/task/back`): not the first, not one the partner completes. */
  canGoBack: z.boolean(),
  /** "Start again" is offered: false while a partner step that forbids it (`restartWhileAwaiting: false`) awaits. */
  canRestart: z.boolean(),
  /** Data saved for each step during this attempt, to resume with the worker's answers (a sensitive value masked). */
  stepData: z.record(z.string(), z.unknown()),
  /** For graded steps: tries used in this task attempt and how many are allowed. */
  gradedAttempts: z.record(z.string(), z.object({ used: nonNegativeInt, max: positiveInt })),
  failure: z.nullable(taskFailureSchema),
  /** What happened during this attempt, oldest first (a restart begins a new attempt and a new history). */
  history: z.array(
    z.object({
      kind: z.enum(historyKinds),
      attempt: positiveInt,
      stepId: z.nullable(z.string()),
      at: isoDateTimeField,
    }),
  ),
  updatedAt: isoDateTimeField,
  /**
   * On `GET /api/task` once the task is completed: a page that watched the partner's backend complete it (a partner
   * step, docs/connecting-your-backend.md#partner-api) fires the end event with this, as it does on the answer to its own last step.
   */
  endEvent: z.optional(endEventSchema),
});
export type TaskView = z.infer<typeof taskViewSchema>;
