import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Who may frame the page (CSP frame-ancestors) and receive the end event (postMessage target origins): PORTAL_ORIGINS,
 * plus this server's own loopback origins under both names whenever the preview portal is on (or in emulator mode
 * without PORTAL_ORIGINS), because the preview at http://localhost:<port> frames the task page at
 * http://127.0.0.1:<port>: two origins, as in production. They name only this machine, so a public site never gains
 * the right to frame the page through them.
 */
export function resolvePortalOrigins(config: Config, request: FastifyRequest): string[] {
  const withLoopback = config.previewEnabled || (config.emulatorMode && config.portalOrigins.length === 0);
  if (!withLoopback) return config.portalOrigins;
  const port = listeningPort(config, request);
  const loopback = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  return [...config.portalOrigins, ...loopback.filter((origin) => !config.portalOrigins.includes(origin))];
}

/** The port this request arrived on: PORT may be 0 (a free port chosen at listen time). */
function listeningPort(config: Config, request: FastifyRequest): number {
  const local = request.socket?.localPort;
  return typeof local === 'number' && local > 0 ? local : config.port;
}
