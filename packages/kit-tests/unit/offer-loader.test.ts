import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '@partner-task-kit/server/clock';
import { newWebhookSecret } from '@partner-task-kit/server/delivery/webhook-signature';
import { loadOffer, type OfferRequestBody } from '@partner-task-kit/server/offers/offer-loader';
import { createHttpTransport } from '@partner-task-kit/server/upstream/http-transport';
import { slotsOfferSchema } from '../fixtures/workflows/work-authorization/definition';

const secret = newWebhookSecret();
const slots = { slots: [{ id: 'slot-1', startsAt: '2030-01-07T09:00:00.000Z', place: 'Centre, 28001' }] };
const body: OfferRequestBody = {
  type: 'offer.requested',
  timestamp: '2026-03-01T09:00:00.000Z',
  data: {
    assignedTaskUuid: 'a1',
    workerUuid: 'w1',
    taskFlowUuid: 'f1',
    companyUuid: 'c1',
    workflowId: 'work-authorization',
    stepId: 'appointment',
    attempt: 1,
    locale: 'es',
    answers: { postcode: { postcode: '28001' } },
  },
};

interface Received {
  url: string;
  id: string;
  verified: unknown;
}

/** The partner's backend: verifies each request with `standardwebhooks`, then answers as `respond` says. */
let server: Server;
let url: string;
let received: Received[];
let respond: (response: ServerResponse, tryNumber: number) => void;
const transport = createHttpTransport();

beforeEach(async () => {
  received = [];
  const verifier = new Webhook(secret);
  server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      let verified: unknown;
      try {
        verified = verifier.verify(text, request.headers as Record<string, string>);
      } catch {
        verified = undefined;
      }
      received.push({ url: request.url ?? '', id: String(request.headers['webhook-id']), verified });
      respond(response, received.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/backend`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const json = (status: number, value: unknown) => (response: ServerResponse) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));

function load(timeoutMs = 1_000) {
  return loadOffer({
    backend: { url, secrets: () => [secret] },
    send: transport.send,
    clock: systemClock,
    timeoutMs,
    schema: slotsOfferSchema,
    body,
  });
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

describe('loading an offer from the partner backend', () => {
  it('POSTs the body signed with the Standard Webhooks headers to /offers/<workflowId>/<stepId> and takes a valid answer', async () => {
    respond = json(200, slots);
    await expect(load()).resolves.toEqual({ ok: true, offer: slots });
    expect(received).toEqual([
      { url: '/backend/offers/work-authorization/appointment', id: expect.stringMatching(/^msg_/), verified: body },
    ]);
  });

  it('tries again after a 5xx or a dropped connection, with the same webhook-id, and takes the answer that comes', async () => {
    respond = (response, tryNumber) => {
      if (tryNumber === 1) return json(503, {})(response);
      if (tryNumber === 2) return response.socket?.destroy();
      json(200, slots)(response);
    };
    await expect(load(3_000)).resolves.toEqual({ ok: true, offer: slots });
    expect(received).toHaveLength(3);
    expect(new Set(received.map((request) => request.id)).size).toBe(1);
    expect(received.every((request) => request.verified !== undefined)).toBe(true);
  });

  it('gives up within the timeout when the backend keeps failing, after more than one try', async () => {
    respond = json(500, { error: 'down' });
    const { value, ms } = await timed(() => load(800));
    expect(value).toEqual({ ok: false, reason: 'HTTP 500' });
    expect(received.length).toBeGreaterThan(1);
    expect(ms).toBeLessThan(800 + 1_000);
  });

  it('gives up within the timeout when the backend does not answer at all', async () => {
    respond = () => {};
    const { value, ms } = await timed(() => load(500));
    expect(value.ok).toBe(false);
    expect(ms).toBeLessThan(500 + 1_000);
  });

  it.each([
    ['not JSON', (response: ServerResponse) => response.writeHead(200).end('<html>ok</html>')],
    ['of another shape', json(200, { slots: [{ id: 'slot-1' }] })],
    ['far too large', json(200, { slots: [], padding: 'x'.repeat(400_000) })],
  ])('refuses an answer %s without asking again', async (_name, answer) => {
    respond = answer;
    const outcome = await load();
    expect(outcome.ok).toBe(false);
    expect(received).toHaveLength(1);
  });

  it('does not ask again after a 4xx other than 408 and 429: the backend refused the request itself', async () => {
    respond = json(401, { error: 'bad signature' });
    await expect(load()).resolves.toEqual({ ok: false, reason: 'HTTP 401' });
    expect(received).toHaveLength(1);
  });
});
