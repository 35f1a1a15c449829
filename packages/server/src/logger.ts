import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';

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
  'webhookSecret',
  'partnerWebhook.secret',
  'err.headers.authorization',
];

export type { Logger };

/** The assigned task id is logged only when it has a UUID's shape: a query value is anyone's to write. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The request of an access line: Fastify's fields, but the path instead of the URL. The task page's link carries the
 * four context UUIDs in its query (docs/platform.md#task-context): the worker's names a person, the company's a client, and neither is the
 * log's to keep. Only the assigned task id stays: an operator follows a task by it, and the delivery lines name it too.
 */
function requestForLog(request: { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  const url = request.url ?? '';
  const queryAt = url.indexOf('?');
  const task = queryAt === -1 ? null : new URLSearchParams(url.slice(queryAt + 1)).get('wxAssignedTaskUuid');
  return {
    method: request.method,
    url: queryAt === -1 ? url : url.slice(0, queryAt),
    ...(task !== null && UUID.test(task) ? { wxAssignedTaskUuid: task } : {}),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The server's one logger, made before anything that logs (store, app, relay) so each is given it, not late-bound. */
export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  // Fastify takes the serializers of the logger it is given over its own (fastify/lib/logger-pino.js).
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { req: requestForLog } };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Where a person at a terminal reads the logs: pino-pretty, one coloured line per event with the time and level, and
 * an access line shortened to `GET /api/task 200 3.1 ms`. Undefined means pino's JSON lines on standard output, for a
 * log collector: with LOG_FORMAT=json, with NODE_ENV=production unless LOG_FORMAT=pretty (config.ts), or when the
 * output is not a terminal. pino-pretty is loaded only when used, so a production server never pays for it.
 */
export async function logDestination(
  format: Config['logFormat'],
  outputIsTerminal: boolean,
  /** Where pretty lines go; standard output by default (tests pass a stream of their own). */
  output?: NodeJS.WritableStream,
): Promise<DestinationStream | undefined> {
  if (format === 'json' || (format === 'auto' && !outputIsTerminal)) return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    ...(output === undefined ? {} : { destination: output }),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime,reqId',
    messageFormat: (line, messageKey) => {
      const message = String(line[messageKey] ?? '');
      const req = line.req as { method?: string; url?: string } | undefined;
      if (req?.method === undefined) return message;
      const res = line.res as { statusCode?: number } | undefined;
      return `${req.method} ${req.url ?? ''} ${res?.statusCode ?? ''} ${String(line.responseTime ?? '?')} ms${message === 'request completed' ? '' : ` · ${message}`}`;
    },
    // Written by the main thread as each line is logged: a development server's volume does not need a worker thread,
    // and a line is never lost when the process exits on a fatal start failure.
    sync: true,
  });
}

/** For code that takes a logger and runs where nothing should be printed (tools, tests). */
export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * One access line per request, written when it completes, instead of Fastify's two (incoming and completed): the
 * second line told nothing the first did not, and logging was about 5% of the step endpoint's CPU (packages/kit-tests/bench/api.ts).
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
