import { z } from 'zod/mini';

/** DESIGN: every error body is {"error":{"code":"snake_case","message":"human sentence"}}; `field` names a bad input. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string().check(z.regex(/^[a-z][a-z0-9_]*$/)),
    message: z.string(),
    field: z.optional(z.string()),
  }),
});
export type ErrorBodyView = z.infer<typeof errorBodySchema>;

/** The codes the task API answers with; partner tooling may switch on them (DESIGN: the HTTP contract). */
export const taskApiErrorCodes = [
  'invalid_body',
  'invalid_json',
  'invalid_context',
  'invalid_step',
  'invalid_step_data',
  'missing_token',
  'invalid_token',
  'token_expired',
  'wrong_task',
  'context_mismatch',
  'task_closed',
  'step_out_of_order',
  'nothing_to_restart',
  'rate_limited',
  'body_too_large',
  'unsupported_media_type',
] as const;
export type TaskApiErrorCode = (typeof taskApiErrorCodes)[number];
