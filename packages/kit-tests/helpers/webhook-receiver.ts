import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';

/** One request the partner's backend received, as it arrived. */
export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** When it arrived, by the receiver's clock (the test's, or the system's). */
  readonly at: number;
  /** The status it was answered with; undefined while it is held unanswered. */
  status: number | undefined;
}

export interface WebhookReceiver {
  /** Where the events go: its /hooks (it takes any path, and records it). */
  readonly url: string;
  /** Every request, in the order they arrived, answered or not. */
  readonly received: ReceivedRequest[];
  /** The requests it answered with 2xx: the events delivered. */
  accepted(): ReceivedRequest[];
  close(): Promise<void>;
}

export interface WebhookReceiverOptions {
  /** How each request is answered; by default 204 at once. */
  answer?: (request: ReceivedRequest, response: ServerResponse) => void;
  /** The receiver's clock; the system's by default. */
  now?: () => number;
}

/** The partner's backend, over real HTTP on loopback: it keeps every request and answers as told. */
export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const now = options.now ?? Date.now;
  const answer = options.answer ?? ((_request, response) => response.writeHead(204).end());
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const entry: ReceivedRequest = { path: request.url ?? '', headers: request.headers, body, at: now(), status: undefined };
      received.push(entry);
      response.on('finish', () => (entry.status = response.statusCode));
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    accepted: () => received.filter((request) => request.status !== undefined && request.status >= 200 && request.status < 300),
    close: () => {
      // A request held unanswered would keep the server open.
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** An answer that fails (503) while `failing` says so, as a backend that is down; 204 otherwise. */
export function failingWhile(failing: () => boolean): NonNullable<WebhookReceiverOptions['answer']> {
  return (_request, response) => void response.writeHead(failing() ? 503 : 204).end();
}

/** The partner event a request carried (docs/connecting-your-backend.md): its type, its time and its task. */
export function eventOf(request: ReceivedRequest): {
  type: string;
  timestamp: string;
  data: { assignedTaskUuid: string; attempt: number; [field: string]: unknown };
} {
  return JSON.parse(request.body) as ReturnType<typeof eventOf>;
}

/** Whether a backend holding `secret` accepts the request's signature, at the time it arrived (standardwebhooks reads Date). */
export function verifies(secret: string, request: ReceivedRequest): boolean {
  vi.useFakeTimers({ toFake: ['Date'], now: request.at });
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}
