import type { TaskApiErrorCode } from '../src/contract/error-body';
import { HttpError } from './http/error-handling';

/** One status per code, so a code always means the same HTTP answer (STYLE habit 9). */
const statusOf: Record<TaskApiErrorCode, number> = {
  invalid_body: 400,
  invalid_json: 400,
  invalid_context: 400,
  invalid_step: 404,
  invalid_step_data: 400,
  missing_token: 401,
  invalid_token: 401,
  token_expired: 401,
  wrong_task: 403,
  context_mismatch: 409,
  task_closed: 409,
  step_out_of_order: 409,
  nothing_to_restart: 409,
  rate_limited: 429,
  body_too_large: 413,
  unsupported_media_type: 415,
};

export function taskError(code: TaskApiErrorCode, message: string, field?: string): HttpError {
  return new HttpError(statusOf[code], code, message, field);
}
