import { z } from 'zod/mini';

/** docs/api.md#errors: every error body is {"error":{"code":"snake_case","message":"human sentence"}}; `field` names a bad input. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string().check(z.regex(/^[a-z][a-z0-9_]*$/)),
    message: z.string(),
    field: z.optional(z.string()),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * Every code the server answers with, and the one status each always has (docs/api.md#error-codes). Partner tooling and the page switch on the code, never on the message.
 */
export const apiErrorStatus = {
  invalid_context: 400,
  invalid_body: 400,
  invalid_json: 400,
  invalid_step_data: 400,
  worker_message_without_failure: 400,
  bad_request: 400,
  invalid_cursor: 400,
  missing_idempotency_key: 400,
  unknown_workflow: 400,
  missing_token: 401,
  invalid_token: 401,
  token_expired: 401,
  wrong_task: 403,
  unknown_company: 403,
  reveal_not_allowed: 403,
  invalid_step: 404,
  not_found: 404,
  task_not_found: 404,
  context_mismatch: 409,
  task_closed: 409,
  step_out_of_order: 409,
  task_rejected: 410,
  nothing_to_restart: 409,
  step_not_awaiting_partner: 409,
  back_not_allowed: 409,
  restart_not_allowed: 409,
  offer_not_loaded: 409,
  upload_complete: 409,
  upload_offset_mismatch: 409,
  upload_header_missing: 403,
  upload_expired: 410,
  tus_resumable_required: 412,
  upload_busy: 423,
  offer_unavailable: 424,
  idempotency_key_reused: 409,
  idempotency_key_in_use: 409,
  request_timeout: 408,
  body_too_large: 413,
  upload_too_large: 413,
  upload_quota_exceeded: 413,
  invalid_upload_metadata: 400,
  unsupported_file_type: 415,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  upload_extension_unsupported: 501,
  page_not_built: 503,
  database_unreachable: 503,
  starting: 503,
  shutting_down: 503,
} as const satisfies Record<string, number>;

export type ApiErrorCode = keyof typeof apiErrorStatus;
