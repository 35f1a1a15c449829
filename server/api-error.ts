import type { ApiErrorCode } from '../src/contract/api-errors';

/**
 * A failure reported on purpose (STYLE habit 9): a code of the contract, a sentence for a human, and the input at
 * fault. Its HTTP status follows from the code, in one place (http/error-handling.ts).
 */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export function apiError(code: ApiErrorCode, message: string, field?: string): ApiError {
  return new ApiError(code, message, field);
}
