import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { apiErrorStatus, type ApiErrorCode, type ErrorBody } from '@partner-task-kit/workflow/contract';
import type { Config } from '../config.ts';
import { answerClientError } from './error-handling.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * What the listener answers by itself, around the app's life (docs/operations.md#start-and-stop): before the app exists
 * (waiting for the database, then migrating and building it), and once the server is leaving (readiness while it
 * drains, every request while it closes). In between, every request is the app's.
 */
type Phase = { kind: 'waiting'; reason: string } | { kind: 'starting' } | { kind: 'serving' } | { kind: 'draining' } | { kind: 'closing' };

export interface PublicListener {
  server: Server;
  /** Fastify's `serverFactory`: the app is built onto this server, which already listens, and answers once `serve()`. */
  serverFactory: (handler: Handler) => Server;
  /** Listens on PORT and HOST; resolves with the port taken (PORT may be 0). */
  listen(port: number, host: string): Promise<number>;
  /** Still waiting for the database: `/readyz` names why. */
  waitingFor(reason: string): void;
  /** The database is open and migrated; the app is being built. */
  starting(): void;
  /** Hands every request to the app from now on: no gap, the port never closed. */
  serve(): void;
  /** Readiness turns 503 `shutting_down` at once; every other route is still the app's. */
  drain(): void;
  /** Stops accepting, answers requests still arriving on open connections with 503, resolves once every one is closed. */
  close(): Promise<void>;
}

/** What a client waits before asking again while the server starts (the same as for a database away). */
const RETRY_AFTER_SECONDS = 2;
/** While closing, connections that finish their request are closed this often, rather than after their keep-alive. */
const REAP_INTERVAL_MS = 100;

/**
 * The public listener, made before anything else so an orchestrator's probes are answered from the first moment: a
 * server waiting for its Postgres is alive (`/healthz` 200) and not ready (`/readyz` 503), not a refused connection
 * that reads as a crash. The node:http server is ours, so the timeouts Fastify would set are set here.
 */
export function createPublicListener(timeouts: Config['timeouts']): PublicListener {
  let phase: Phase = { kind: 'waiting', reason: 'connecting' };
  let app: Handler | undefined;
  const server = createServer(
    // Node looks for overdue requests on this interval (30 s by default), which would stretch the timeouts.
    { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs) },
    (request, response) => {
      if (app && (phase.kind === 'serving' || (phase.kind === 'draining' && !isReadiness(request)))) app(request, response);
      else answerAround(phase, request, response);
    },
  );
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  // Until the app is built; Fastify then adds its own (the same answers) and this one steps aside.
  server.on('clientError', answerClientError);

  return {
    server,
    serverFactory: (handler) => {
      app = handler;
      server.off('clientError', answerClientError);
      return server;
    },
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address();
          resolve(typeof address === 'object' && address !== null ? address.port : port);
        });
      }),
    waitingFor: (reason) => {
      if (phase.kind === 'waiting') phase = { kind: 'waiting', reason };
    },
    starting: () => {
      phase = { kind: 'starting' };
    },
    serve: () => {
      if (!app) throw new Error('the app was not built onto this listener (serverFactory)');
      phase = { kind: 'serving' };
    },
    drain: () => {
      if (phase.kind === 'serving') phase = { kind: 'draining' };
    },
    close: () => {
      phase = { kind: 'closing' };
      return new Promise<void>((resolve, reject) => {
        // Node closes the connections idle now; those finishing a request would otherwise stay for their keep-alive.
        const reaper = setInterval(() => server.closeIdleConnections(), REAP_INTERVAL_MS);
        server.close((error) => {
          clearInterval(reaper);
          if (error && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}

function answerAround(phase: Phase, request: IncomingMessage, response: ServerResponse): void {
  switch (phase.kind) {
    case 'waiting':
    case 'starting':
      if (isRead(request) && pathOf(request) === '/healthz') return send(response, 200, { status: 'starting' });
      response.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
      if (isReadiness(request) && phase.kind === 'waiting') {
        return sendError(response, 'database_unreachable', `Waiting for the database: ${phase.reason}.`);
      }
      return sendError(response, 'starting', 'The server is starting; try again in a moment.');
    case 'draining':
      // The proxy's cue to send its work elsewhere; every other route is still the app's until the grace ends.
      return sendError(response, 'shutting_down', 'The server is shutting down: send new work to another instance.');
    default:
      // Closing: a request still arriving on an open keep-alive connection. `Connection: close`, so the client
      // retries on a new connection (another instance, or this one restarted).
      response.setHeader('connection', 'close');
      return sendError(response, 'shutting_down', 'The server is shutting down; try again in a moment.');
  }
}

const pathOf = (request: IncomingMessage) => (request.url ?? '/').split('?')[0];
const isRead = (request: IncomingMessage) => request.method === 'GET' || request.method === 'HEAD';
const isReadiness = (request: IncomingMessage) => isRead(request) && pathOf(request) === '/readyz';

function sendError(response: ServerResponse, code: ApiErrorCode, message: string): void {
  send(response, apiErrorStatus[code], { error: { code, message } } satisfies ErrorBody);
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
