import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EmulatorError, errorBody } from './emulator-error';

/** Fastify's own 4xx errors (body parsing, content type) mapped to the emulator's codes. */
const fastifyCodes: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'body_too_large', message: 'the body is larger than the emulator accepts' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type', message: 'the Content-Type is not supported here' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'malformed_json', message: 'the body is empty but Content-Type is application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'malformed_json', message: 'the body is not valid JSON' },
};

/**
 * One place that turns errors into HTTP answers for every emulator route: a refusal keeps its status and code, bad
 * input caught by Fastify becomes a 4xx with the shared error body, and only a bug of the emulator is a 500.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof EmulatorError) {
      for (const [name, value] of Object.entries(error.details.headers ?? {})) void reply.header(name, value);
      return reply.code(error.statusCode).send(error.toBody());
    }
    const { code, statusCode } = describe(error);
    const known = code === undefined ? undefined : fastifyCodes[code];
    if (known !== undefined) return reply.code(known.status).send(errorBody(known.code, known.message));
    if (error instanceof SyntaxError || (statusCode === 400 && code === undefined)) {
      return reply.code(400).send(errorBody('malformed_json', 'the body is not valid JSON'));
    }
    if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
      return reply.code(statusCode).send(errorBody('bad_request', 'the request was refused by the HTTP layer'));
    }
    request.log.error({ err: error }, 'emulator failure');
    return reply.code(500).send(errorBody('internal_error', 'the emulator failed: this is a bug in the emulator'));
  });
  app.setNotFoundHandler((request, reply) => {
    return reply.code(404).send(errorBody('not_found', `no emulator route for ${request.method} ${request.url.split('?')[0] ?? ''}`));
  });
}

function describe(error: unknown): { code?: string; statusCode?: number } {
  if (typeof error !== 'object' || error === null) return {};
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  return {
    code: typeof code === 'string' ? code : undefined,
    statusCode: typeof statusCode === 'number' ? statusCode : undefined,
  };
}
