import type { HeaderReader } from './http-transport.ts';

/**
 * Every upstream call ends in one of these values (docs/architecture.md#errors-are-values-with-a-code: errors are values with a code). The relay decides
 * what to do from `kind` alone: retry later, renew the token, or give up on the record.
 */
type RetryableReason = 'server_error' | 'rate_limited' | 'request_timeout' | 'timeout' | 'network' | 'client_error';

export interface RetryableFailure {
  kind: 'retryable';
  reason: RetryableReason;
  status?: number;
  /** From the `Retry-After` header of a 429 or 503, in milliseconds from now. */
  retryAfterMs?: number;
  detail: string;
}

/** The bearer token was refused even after one renewal (docs/platform.md#authentication: a 401 means the token is not accepted). */
interface TokenRejectedFailure {
  kind: 'token_rejected';
  status: 401;
  detail: string;
}

/**
 * 403: the credential is valid but its role lacks a permission (docs/platform.md#permissions: updates need worker-experience
 * permissions, whose names are not shown). One change in the platform makes every held update deliverable again.
 */
interface ForbiddenFailure {
  kind: 'forbidden';
  status: 403;
  detail: string;
}

/**
 * 404 on an update: the platform does not know this task (docs/platform.md#the-update-endpoint shows no error codes; 404 is HTTP's "not found").
 * A task created a moment late exists on a later try; one that never does is not the platform's (docs/decisions/008-a-deputy-for-many-companies.md).
 */
interface UnknownTaskFailure {
  kind: 'unknown_task';
  status: 404;
  detail: string;
}

/**
 * The platform refused the request itself, or answered with more than any answer of its kind needs
 * (`answer_too_large`, packages/server/src/upstream/http-transport.ts): sending it again cannot help.
 */
interface PermanentFailure {
  kind: 'permanent';
  reason: 'rejected' | 'invalid_record' | 'answer_too_large';
  status?: number;
  /** The start of the response body (or the validation issues), kept for the operator. */
  detail: string;
}

/**
 * The credential could not be exchanged for a token: refused (401/403 or another 4xx from the token endpoint) or
 * answered in a shape we cannot read. An operator must act; the records themselves are fine.
 */
export interface AuthFailure {
  kind: 'auth_failed';
  reason: 'credentials_rejected' | 'unrecognized_token_response';
  status?: number;
  detail: string;
}

export type UpstreamFailure =
  RetryableFailure | TokenRejectedFailure | ForbiddenFailure | UnknownTaskFailure | PermanentFailure | AuthFailure;

export type UpdateOutcome = { kind: 'delivered'; status: number } | UpstreamFailure;

export type WorkersOutcome = { kind: 'ok'; status: number; body: unknown } | UpstreamFailure;

const BODY_START_LENGTH = 500;

/** What to read of an answer whose body only `bodyStart` uses: BODY_START_LENGTH characters take at most 4 bytes each. */
export const BODY_START_BYTES = BODY_START_LENGTH * 4;

/** The start of an answer's body for an error message; `truncated`: the body went on past `text`. */
export function bodyStart(text: string, truncated = false): string {
  return text.length > BODY_START_LENGTH || truncated ? `${text.slice(0, BODY_START_LENGTH)}…` : text;
}

/**
 * `Retry-After` is either delay-seconds or an HTTP-date (RFC 9110 10.2.3). Returns milliseconds from `now`, or
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Classifies a non-2xx, non-401 answer (docs/platform.md#errors shows no error codes, so the HTTP status is all we rely on). */
export function classifyFailureStatus(
  status: number,
  headers: HeaderReader,
  text: string,
  now: number,
  /** `text` is only the start of the body (http-transport.ts reads no more than it needs). */
  truncated = false,
): UpstreamFailure {
  if (status === 429 || status === 503) {
    const retryAfterMs = parseRetryAfter(headers.get('retry-after'), now);
    return {
      kind: 'retryable',
      reason: status === 429 ? 'rate_limited' : 'server_error',
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      detail: `HTTP ${status}`,
    };
  }
  if (status === 408) return { kind: 'retryable', reason: 'request_timeout', status, detail: 'HTTP 408' };
  if (status >= 500) return { kind: 'retryable', reason: 'server_error', status, detail: `HTTP ${status}` };
  const detail = bodyStart(text, truncated);
  if (status === 403) return { kind: 'forbidden', status, detail };
  if (status === 404) return { kind: 'unknown_task', status, detail };
  return { kind: 'permanent', reason: 'rejected', status, detail };
}

/** Network-level failures: our timeout, a refused or dropped connection. All are worth retrying. */
export function classifyFetchError(error: unknown, timeoutMs: number): RetryableFailure {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return { kind: 'retryable', reason: 'timeout', detail: `no answer within ${timeoutMs} ms` };
  }
  // node:http puts the system error code (ECONNREFUSED, ECONNRESET) on the error itself, fetch on its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  const message = cause instanceof Error ? cause.message : String(cause);
  return { kind: 'retryable', reason: 'network', detail: code ? `${code}: ${message}` : message };
}
