import { z } from 'zod/mini';
import { nonNegativeInt, positiveInt } from './contract-fields';
import { taskViewSchema } from './task-view';

/** `POST /api/task/steps/:stepId` body. `data` is checked against the step's own schema by the server. */
export const stepSubmissionSchema = z.strictObject({
  data: z.unknown().check(z.refine((value) => value !== undefined, 'is required')),
});

/** The outcome of a graded step (the quiz). Scores only: which answers were right never leaves the server. */
const gradingResultSchema = z.object({
  passed: z.boolean(),
  score: nonNegativeInt,
  total: positiveInt,
  passMark: positiveInt,
  attemptsLeft: nonNegativeInt,
});
export type GradingResult = z.infer<typeof gradingResultSchema>;

/**
 * docs/platform.md#end-event: the end event's name and delivery format are not shown, so both come from the server's configuration
 * (END_EVENT, END_EVENT_FORMAT); the page posts it to each origin in `targetOrigins` exactly.
 */
const endEventSchema = z.object({
  name: z.string().check(z.minLength(1)),
  format: z.enum(['string', 'object']),
  targetOrigins: z.array(z.string()),
});
export type EndEvent = z.infer<typeof endEventSchema>;

export const stepResultSchema = z.object({
  task: taskViewSchema,
  grading: z.optional(gradingResultSchema),
  /** Present only when this submission completed the task and the completion is stored. */
  endEvent: z.optional(endEventSchema),
});
export type StepResult = z.infer<typeof stepResultSchema>;

/** `POST /api/task/start` and `POST /api/task/restart` take no input; an empty object or no body is accepted. */
export const emptyBodySchema = z.nullish(z.strictObject({}));
