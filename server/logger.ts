import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config';

/**
 * Structured JSON logs. Anything that could carry a credential is censored wherever it appears, so a secret never
 * reaches a log line even when a request or an error object is logged whole.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.application',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'accessToken',
  'access_token',
  'token',
  'secret',
  'credential',
  '*.authorization',
  '*.accessToken',
  '*.access_token',
  '*.token',
  '*.secret',
  '*.credential',
];

export function loggerOptions(level: Config['logLevel']): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
}
