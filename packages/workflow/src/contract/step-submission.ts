import { z } from 'zod/mini';
import { nonNegativeInt, positiveInt } from './contract-fields.ts';
import { endEventSchema, stepIdSchema, taskViewSchema } from './task-view.ts';

/** `POST /api/task/steps/:stepId` body. `data` is checked against the step's own schema by the server. */
export const stepSubmissionSchema = z.strictObject({
  data: z.unknown().check(z.refine((value) => value !== undefined, 'is required')),
});

/** The outcome of a graded step. Scores only: which answers were right never leaves the server. */
const gradingResultSchema = z.object({
  passed: z.boolean(),
  score: nonNegativeInt,
  total: positiveInt,
  passMark: positiveInt,
  attemptsLeft: nonNegativeInt,
});
export type GradingResult = z.infer<typeof gradingResultSchema>;

export type { EndEvent } from './task-view.ts';

export const stepResultSchema = z.object({
  task: taskViewSchema,
  grading: z.optional(gradingResultSchema),
  /** Present only when this submission completed the task and the completion is stored. */
  endEvent: z.optional(endEventSchema),
});
export type StepResult = z.infer<typeof stepResultSchema>;

/** `POST /api/task/start` and `POST /api/task/restart` take no input; an empty object or no body is accepted. */
export const emptyBodySchema = z.nullish(z.strictObject({}));

/** `POST /api/task/back`: the step the page shows, so a stale page (another tab moved on) cannot move the task. */
export const backRequestSchema = z.strictObject({ from: stepIdSchema });
