import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Every route the app registered, read from Fastify's own table (`printRoutes`), so a test covers the routes added
 * after it was written. Fastify prints a tree, one node a line, each a piece of the path below its parent's, with its
 * methods in brackets when it has a handler:
 *
 *   ├── /emulator/control/assignments (GET, HEAD, POST)
 *   │   └── /:uuid (GET, HEAD)
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const pathAtDepth: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!node) continue;
    const depth = node[1]!.length / 4;
    const url = (pathAtDepth[depth - 1] ?? '') + node[2]!;
    pathAtDepth[depth] = url;
    pathAtDepth.length = depth + 1;
    for (const method of node[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes;
}
