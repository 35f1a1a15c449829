import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Registry } from 'prom-client';
import { apiError } from '../api-error.ts';

export interface MetricsRouteOptions {
  /** Every metric of this server: the relay's, the upstream client's, the outbox gauges. */
  metrics: Registry;
  /** METRICS_TOKEN: when set, only `Authorization: Bearer <token>` reads the metrics. */
  token: string | undefined;
}

/**
 * `GET /metrics`, Prometheus text, for operators only (docs/operations.md#metrics): mounted on the listener of
 * METRICS_PORT, or on the public one behind METRICS_TOKEN, or openly in emulator mode (config.ts decides where).
 */
export const metricsRoute: FastifyPluginAsync<MetricsRouteOptions> = async (app, { metrics, token }) => {
  const expected = token === undefined ? undefined : digest(token);
  app.get('/metrics', { config: { routine: true } }, async (request, reply) => {
    if (expected !== undefined) checkBearer(request.headers.authorization, expected, reply);
    reply.type(metrics.contentType);
    return metrics.metrics();
  });
};

/**
 * Compared as SHA-256 digests with timingSafeEqual: equal lengths whatever was sent, so neither the time taken nor
 * the length tells a guesser how close it came.
 */
function checkBearer(authorization: string | undefined, expected: Buffer, reply: FastifyReply): void {
  const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  if (presented !== undefined && timingSafeEqual(digest(presented), expected)) return;
  // RFC 6750 section 3: a 401 names the scheme the client should use.
  reply.header('www-authenticate', 'Bearer realm="metrics"');
  if (presented === undefined)
    throw apiError('missing_token', 'Send METRICS_TOKEN as "Authorization: Bearer <token>" to read the metrics.');
  throw apiError('invalid_token', 'This bearer token is not METRICS_TOKEN.');
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
