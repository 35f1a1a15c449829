import { apiErrorStatus, errorBodySchema, type ApiErrorCode } from '@partner-task-kit/workflow/contract';

/**
 * The server's codes (the contract), plus the page's own: `network` (no answer at all), and `server_error` /
 * `http_error` for an answer without the contract's error body (a proxy's page, a newer server's unknown code).
 */
export type PageErrorCode = ApiErrorCode | 'network' | 'server_error' | 'http_error';

/**
 * A failed call to our server, as a value with a code (docs/architecture.md#errors-are-values-with-a-code). `network` means no answer at all (offline, the
 * server down); every other code is the server's own, in the error body of docs/api.md#errors.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: PageErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

/** @internal */
export async function apiErrorFrom(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const parsed = errorBodySchema.safeParse(body);
  const fallback = response.status >= 500 ? 'server_error' : 'http_error';
  if (!parsed.success) return new ApiError(response.status, fallback, `HTTP ${response.status}`);
  const { code, message, field } = parsed.data.error;
  return new ApiError(response.status, isApiErrorCode(code) ? code : fallback, message, field);
}

function isApiErrorCode(code: string): code is ApiErrorCode {
  return Object.hasOwn(apiErrorStatus, code);
}

/** @internal */
export function networkError(cause: unknown): ApiError {
  const error = new ApiError(0, 'network', cause instanceof Error ? cause.message : 'network error');
  error.cause = cause;
  return error;
}
