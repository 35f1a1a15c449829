import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { apiErrorStatus, type ApiErrorCode, type ErrorBody } from '@partner-task-kit/workflow/contract';
import { ApiError } from '../api-error.ts';
import { databaseFailureOf } from '../store/health.repository.ts';

/** What a route's invalid input is called, when not `invalid_body` (e.g. the session's four values: `invalid_context`). */
interface InputErrorCodes {
  body?: ApiErrorCode;
  params?: ApiErrorCode;
  querystring?: ApiErrorCode;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    inputErrors?: InputErrorCodes;
  }
}

/** Fastify's own refusals (the body parser's), by Fastify's error code. */
const fastifyCodes: Record<string, ApiErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
};

/** Maps every error to HTTP in one place (docs/architecture.md#errors-are-values-with-a-code): the body of docs/api.md#errors, a 5xx only for our own faults. */
export function registerErrorHandling(app: FastifyInstance): void {
  const databaseReports = new ThrottledReports(DATABASE_REPORT_INTERVAL_MS);
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendError(reply, error.code, error.message, error.field);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // The first problem, named by its path (`wxWorkerUuid`, `data.signature`), or the whole input when it has none.
      const context = (error.validationContext ?? 'body') as keyof InputErrorCodes;
      const code = request.routeOptions.config.inputErrors?.[context] ?? 'invalid_body';
      const issue = error.validation[0]!;
      const path = issue.instancePath.slice(1).replaceAll('/', '.') || context;
      const keys = issue.keyword === 'unrecognized_keys' ? (issue.params as { keys?: string[] }).keys : undefined;
      const detail = keys ? `has unexpected fields: ${keys.join(', ')}` : issue.message;
      return sendError(reply, code, `${path} ${detail}`.slice(0, 300), path);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, fastifyCodes[error.code] ?? 'bad_request', error.message, undefined, status);
    }
    const database = databaseFailureOf(error);
    if (database !== undefined) {
      databaseReports.report(request.log, database, error);
      reply.header('retry-after', '2');
      return sendError(
        reply,
        'database_unreachable',
        `The database cannot take this request right now (${database}); please try again shortly.`,
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 'internal_error', 'Something went wrong on our side; please try again.');
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, 'not_found', `No route for ${request.method} ${request.url.split('?')[0]}`));
}

/**
 * Fastify's errors raised before any route is chosen (a malformed URL, a failed constraint), which otherwise answer
 * with Fastify's own body: passed as Fastify's `frameworkErrors` option.
 */
export function answerFrameworkError(error: FastifyError, _request: unknown, reply: FastifyReply) {
  return sendError(reply, 'bad_request', error.message, undefined, error.statusCode ?? 400);
}

/**
 * A request the HTTP parser refused, or a client too slow for the timeouts (Fastify's `clientErrorHandler`): answered
 * on the raw socket, in the contract's shape, then closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT';
  const code: ApiErrorCode = timedOut ? 'request_timeout' : 'bad_request';
  const message = timedOut ? 'The request took too long to arrive.' : 'The request is not valid HTTP.';
  const body = JSON.stringify({ error: { code, message } } satisfies ErrorBody);
  const status = apiErrorStatus[code];
  socket.end(
    `HTTP/1.1 ${status} ${timedOut ? 'Request Timeout' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function sendError(reply: FastifyReply, code: ApiErrorCode, message: string, field?: string, status: number = apiErrorStatus[code]) {
  const body: ErrorBody = { error: { code, message, ...(field === undefined ? {} : { field }) } };
  return reply.status(status).send(body);
}

/** While the database is away every request fails alike: one line per cause per interval says it, with a count. */
const DATABASE_REPORT_INTERVAL_MS = 10_000;

/**
 * At most one log line per cause per interval, counting what it left out. By hand: pino has no sampling, and a
 * library for a dozen lines would be a dependency to keep.
 */
class ThrottledReports {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(private readonly intervalMs: number) {}

  report(log: FastifyBaseLogger, cause: string, error: Error): void {
    const now = performance.now();
    const entry = this.last.get(cause);
    if (entry && now - entry.at < this.intervalMs) {
      entry.suppressed += 1;
      return;
    }
    log.error(
      { cause, detail: error.message, sameSinceLastLine: entry?.suppressed ?? 0 },
      `the database cannot serve requests (${cause}): answering 503 database_unreachable until it can`,
    );
    this.last.set(cause, { at: now, suppressed: 0 });
  }
}
