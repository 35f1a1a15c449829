import { errorBodySchema } from '../contract/error-body';

/**
 * A failed call to our server, as a value with a code (STYLE habit 9). `network` means no answer at all (offline, the
 * server down); every other code is the server's own from the DESIGN error body.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
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

export async function apiErrorFrom(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const parsed = errorBodySchema.safeParse(body);
  if (parsed.success) return new ApiError(response.status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.field);
  return new ApiError(response.status, response.status >= 500 ? 'server_error' : 'http_error', `HTTP ${response.status}`);
}

export function networkError(cause: unknown): ApiError {
  const error = new ApiError(0, 'network', cause instanceof Error ? cause.message : 'network error');
  error.cause = cause;
  return error;
}
