import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config';

/**
 * Structured JSON logs. Anything that could carry a credential is censored wherever it appears, so a secret never
 * reaches a log line even when a request or an error object is logged whole.
 */
const REDACTED_PATHS = [
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

export type { Logger };

/** The server's one logger, made before anything that logs (store, app, relay) so each is given it, not late-bound. */
export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

/** For code that takes a logger and runs where nothing should be printed (tools, tests). */
export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * One access line per request, written when it completes, instead of Fastify's two (incoming and completed): the
 * second line told nothing the first did not, and logging was about 5% of the step endpoint's CPU (bench/api.ts).
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
