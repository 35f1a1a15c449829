import type { FastifyInstance } from 'fastify';

/**
 * Without TRUST_PROXY the socket's address is the client's (docs/configuration.md#reverse-proxy). A request carrying
 * X-Forwarded-For came through a proxy, so every worker behind it shares the proxy's address, and the per-address
 * limits count them all as one client. Said once, at the first such request: the setting holds until a restart.
 */
export function warnOfUntrustedProxy(app: FastifyInstance): void {
  let warned = false;
  app.addHook('onRequest', (request, _reply, done) => {
    if (!warned && request.headers['x-forwarded-for'] !== undefined) {
      warned = true;
      request.log.warn(
        { proxyAddress: request.ip },
        'a request came through a proxy (it carries X-Forwarded-For) but TRUST_PROXY is unset: every worker behind the ' +
          'proxy shares its address, so RATE_LIMIT_PER_ADDRESS and NEW_TASKS_PER_ADDRESS_PER_HOUR limit them all as one ' +
          "client; set TRUST_PROXY to the proxy's address (proxyAddress)",
      );
    }
    done();
  });
}
