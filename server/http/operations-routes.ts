import type { FastifyPluginAsync } from 'fastify';
import type { Registry } from 'prom-client';
import { pingDatabase } from '../store/health.repository';
import type { Store } from '../store/store';

export interface OperationsRoutesOptions {
  store: Store;
  /** Every metric of this server: the relay's, the upstream client's, the outbox gauges. */
  metrics: Registry;
}

/** Liveness, readiness and Prometheus metrics: unauthenticated, for the platform that runs the server. */
export const operationsRoutes: FastifyPluginAsync<OperationsRoutesOptions> = async (app, { store, metrics }) => {
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
    reply.type(metrics.contentType);
    return metrics.metrics();
  });
};
