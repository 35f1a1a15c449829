import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../clock';
import type { DeliveryCounters } from '../delivery/delivery-metrics';
import { renderMetrics } from './metrics';
import { pingDatabase } from '../store/health.repository';
import { outboxStats } from '../store/outbox.repository';
import type { Store } from '../store/store';

export interface OperationsRoutesOptions {
  store: Store;
  clock: Clock;
  counters: DeliveryCounters;
  /** Late-bound: the upstream client is made once the server knows its own address (emulator mode). */
  tokenRequests: () => number;
}

/** Liveness, readiness and Prometheus metrics: unauthenticated, for the platform that runs the server. */
export const operationsRoutes: FastifyPluginAsync<OperationsRoutesOptions> = async (app, { store, clock, counters, tokenRequests }) => {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    try {
      await pingDatabase(store.db);
      return { status: 'ready', database: store.dialect };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness: database unreachable');
      return reply.status(503).send({ error: { code: 'database_unreachable', message: 'The database does not answer.' } });
    }
  });

  app.get('/metrics', async (_request, reply) => {
    const outbox = await outboxStats(store.db, clock.now());
    reply.type('text/plain; version=0.0.4; charset=utf-8');
    return renderMetrics({ outbox, delivery: counters.snapshot(), tokenRequests: tokenRequests() });
  });
};
