import type { FastifyError, FastifyInstance } from 'fastify';

/** DESIGN: every error body is {"error":{"code","message"}}; a 5xx only for a fault of the server itself. */
export interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

/** A failure a route or service reports on purpose: a code, a status, a sentence for a human. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string, field?: string): ErrorBody {
  return { error: { code, message, ...(field === undefined ? {} : { field }) } };
}

/** Maps every error to HTTP in one place (STYLE habit 9). */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.status).send(errorBody(error.code, error.message, error.field));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals: malformed JSON, a body over the limit, an unsupported content type.
      const code = fastifyCodes[error.code] ?? 'bad_request';
      return reply.status(status).send(errorBody(code, error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('internal_error', 'Something went wrong on our side; please try again.'));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody('not_found', `No route for ${request.method} ${request.url.split('?')[0]}`));
  });
}

const fastifyCodes: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_VALIDATION: 'invalid_body',
};
