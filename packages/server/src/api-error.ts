import type { ApiErrorCode } from '@partner-task-kit/workflow/contract';

/**
 * A failure reported on purpose (docs/architecture.md#errors-are-values-with-a-code): a code of the contract, a sentence for a human, and the input at
 * fault. Its HTTP status follows from the code, in one place (http/error-handling.ts).
 */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly field?: string,
    /** Sent as `Retry-After`: when the request may succeed again (every 429 says it, RFC 9110 section 10.2.3). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export function apiError(code: ApiErrorCode, message: string, field?: string): ApiError {
  return new ApiError(code, message, field);
}

/** A 429 that says when to come back, in whole seconds (at least 1). */
export function rateLimited(message: string, retryAfterMs: number): ApiError {
  return new ApiError('rate_limited', message, undefined, Math.max(1, Math.ceil(retryAfterMs / 1000)));
}
