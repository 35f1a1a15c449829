import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@partner-task-kit/server/server';
import { registeredRoutes, type RegisteredRoute } from '../helpers/registered-routes';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * The emulator's control API and the partner-backend panel's control routes have no authentication: they list every
 * task and stream every worker's files. They are the preview's (docs/configuration.md#the-page-and-the-portal), so a
 * server in emulator mode with PREVIEW_ENABLED=false (a demo host) answers none of them.
 */
const servers: TestServer[] = [];

async function emulatorServer(previewEnabled: boolean): Promise<TestServer> {
  const server = await startTestServer(
    {
      LOG_LEVEL: 'silent',
      PREVIEW_ENABLED: String(previewEnabled),
      // The documented demo host: production, running against its built-in emulator.
      NODE_ENV: 'production',
      ALLOW_EMULATOR_IN_PRODUCTION: 'true',
    },
    { page: true },
  );
  servers.push(server);
  return server;
}

const CONTROL = '/emulator/control';
const controlRoutes = (server: RunningServer) =>
  registeredRoutes(server.app).filter((route) => route.url === CONTROL || route.url.startsWith(`${CONTROL}/`));

/** A real request to the route, its parameters filled in and a JSON body where the method takes one. */
async function call(server: RunningServer, route: RegisteredRoute): Promise<{ status: number; body: string }> {
  const url = route.url.replace(/:\w+/g, () => randomUUID());
  const withBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  const response = await fetch(`${server.url}${url}`, {
    method: route.method,
    ...(withBody ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
  });
  return { status: response.status, body: await response.text() };
}

/** The answer of a path no route has: the app's or the emulator's not-found handler, not a handler's own 404. */
function isNoRoute(answer: { status: number; body: string }): boolean {
  if (answer.status !== 404) return false;
  const error = (JSON.parse(answer.body) as { error?: { code?: string; message?: string } }).error;
  return error?.code === 'not_found' && /^no (emulator )?route for /i.test(error.message ?? '');
}

let previewOn: RunningServer;
let previewOff: RunningServer;
let routes: RegisteredRoute[];

beforeAll(async () => {
  previewOn = await emulatorServer(true);
  previewOff = await emulatorServer(false);
  // Every control route the server mounts with its preview on (HEAD is Fastify's copy of each GET).
  routes = controlRoutes(previewOn).filter((route) => route.method !== 'HEAD');
});

afterAll(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('the control routes go with the preview', () => {
  it('are mounted, and answer, with the preview on: the control API and the partner-backend panel', async () => {
    const urls = routes.map((route) => route.url);
    expect(urls).toContain(`${CONTROL}/assignments`);
    expect(urls).toContain(`${CONTROL}/partner-backend`);
    expect(urls).toContain(`${CONTROL}/partner-backend/tasks/:assignedTaskUuid/uploads/:uploadId`);
    for (const route of routes) {
      const answer = await call(previewOn, route);
      expect(isNoRoute(answer), `${route.method} ${route.url} answered ${answer.status} ${answer.body}`).toBe(false);
    }
  });

  it('are neither mounted nor answered with the preview off, where the platform endpoints stay', async () => {
    expect(controlRoutes(previewOff)).toEqual([]);
    for (const route of routes) {
      const answer = await call(previewOff, route);
      expect(isNoRoute(answer), `${route.method} ${route.url} answered ${answer.status} ${answer.body}`).toBe(true);
    }
    // Only they are gone: the platform's endpoints the server reports to, and the partner backend's stand-in that
    // receives its events, stay where emulator mode needs them.
    const described = (list: RegisteredRoute[]) => list.map((route) => `${route.method} ${route.url}`).sort();
    const isControl = (route: RegisteredRoute) => route.url.startsWith(`${CONTROL}/`) || route.url === CONTROL;
    const withoutControl = registeredRoutes(previewOn.app).filter((route) => !isControl(route));
    expect(described(registeredRoutes(previewOff.app).filter((route) => route.url.startsWith('/emulator/')))).toEqual(
      described(withoutControl.filter((route) => route.url.startsWith('/emulator/'))),
    );
    expect(described(registeredRoutes(previewOff.app))).toContain('POST /emulator/partner-backend/events');
    expect(described(registeredRoutes(previewOff.app))).toContain('POST /emulator/api/servicesecurity/processes/apikey/oauth/token');
  });
});
