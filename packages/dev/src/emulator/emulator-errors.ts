import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** The emulator's one error shape and its error handler: a code, a sentence, and the fields at fault. */

/** One issue of a rejected body: the dotted path of the field and what is wrong with it. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The error body of every emulator answer: `{"error":{"code":"snake_case","message":"..."}}` (docs/architecture.md#errors-are-values-with-a-code). */
export interface ErrorBody {
  error: { code: string; message: string; field?: string; issues?: FieldIssue[] };
}

/**
 * A refusal with an HTTP status and a code. Spec 7 shows no error codes or body shape, so these are the emulator's own;
 * clients must branch on the status, not on the code.
 */
export class EmulatorError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: { field?: string; issues?: FieldIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'EmulatorError';
  }

  toBody(): ErrorBody {
    const { field, issues } = this.details;
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(field === undefined ? {} : { field }),
        ...(issues === undefined ? {} : { issues }),
      },
    };
  }
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

/**
 * Turns zod issues into field-named issues, so a 400 says which field is wrong (e.g. "partnerStatus.label"), never
 * its value. An unknown key is named by its own path; a missing value reads "is required".
 */
function fieldIssues(issues: readonly z.core.$ZodIssue[], input: unknown): FieldIssue[] {
  const result: FieldIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) result.push({ path: joinPath([...issue.path, key]), message: 'is not a known field' });
      continue;
    }
    const missing = issue.path.length > 0 && valueAt(input, issue.path) === undefined;
    result.push({ path: joinPath(issue.path), message: missing ? 'is required' : issue.message });
  }
  return result;
}

/** A 400 naming the first wrong field in `message` and `field`, with every issue listed. */
export function invalidBodyError(error: z.ZodError, input: unknown, code = 'invalid_body'): EmulatorError {
  const issues = fieldIssues(error.issues, input);
  const first = issues[0] ?? { path: 'body', message: 'is invalid' };
  return new EmulatorError(400, code, `${first.path}: ${first.message}`, { field: first.path, issues });
}

/** Parses control input or throws a 400 naming the field. */
export function parseControl<T extends z.ZodType>(schema: T, input: unknown, code = 'invalid_body'): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidBodyError(result.error, input, code);
  return result.data;
}

/** `partnerStatus.label`, `items[2].name`; the body itself is named `body`. */
function joinPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path
    .map((part) => (typeof part === 'number' ? `[${part}]` : String(part)))
    .join('.')
    .replaceAll('.[', '[');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

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
