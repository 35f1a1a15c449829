import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Polled (health checks, metrics, the preview's refreshes): a successful request's access line is at `debug`. */
    routine?: boolean;
  }
}

/**
 * Structured JSON logs. The paths that can carry a credential are censored: the request's headers (should a
 * serializer ever include them) and the names our code gives a secret, a token or a credential when it logs one
 * by mistake. Exact paths, no wildcards: pino checks them on every line, and wildcards made that a measurable cost.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'accessToken',
  'access_token',
  'token',
  'secret',
  'credential',
  'err.headers.authorization',
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
 * A routine route's successful requests are at `debug`, so polling does not bury what happened; its failures stay.
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (request.routeOptions.config.routine === true && reply.statusCode < 400) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
