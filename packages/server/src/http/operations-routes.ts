import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../clock.ts';
import { probeWrite, type WriteProbe } from '../store/health.repository.ts';
import type { Store } from '../store/store.ts';

export interface OperationsRoutesOptions {
  store: Store;
  clock: Clock;
}

/** Readiness is probed at most this often: a load balancer polling many times a second costs one write per second. */
const PROBE_INTERVAL_MS = 1_000;

/**
 * Liveness and readiness: unauthenticated, for the platform that runs the server. `/metrics` is not here: it is for
 * operators only (metrics-route.ts).
 */
export const operationsRoutes: FastifyPluginAsync<OperationsRoutesOptions> = async (app, { store, clock }) => {
  let last: { at: number; probe: Promise<WriteProbe> } | undefined;
  let wasReady = true;
  const probe = () => {
    const now = clock.now();
    if (!last || now - last.at >= PROBE_INTERVAL_MS) last = { at: now, probe: probeWrite(store.db, now) };
    return last.probe;
  };

  app.get('/healthz', { config: { routine: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { routine: true } }, async (request, reply) => {
    const result = await probe();
    // One line when the state changes, not one per poll.
    if (result.ok !== wasReady) {
      wasReady = result.ok;
      // The file or host is named in the log only: /readyz answers anyone, and a path tells them about the machine.
      const database = { database: store.dialect, location: store.location };
      if (result.ok) request.log.info(database, `readiness: the database takes writes again: ${store.location}`);
      else
        request.log.error(
          { ...database, reason: result.reason, detail: result.detail },
          `readiness: the database refuses writes (${result.reason}): ${store.location}`,
        );
    }
    if (result.ok) return { status: 'ready', database: store.dialect };
    return reply.status(503).send({
      error: {
        code: 'database_unreachable',
        message: `The database cannot take a write: ${result.reason} (${result.detail.slice(0, 200)}).`,
      },
    });
  });
};
