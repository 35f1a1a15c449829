import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How the backend answers the next offer requests: `none` is an empty offer (`{"slots": []}`). */
export type OfferBackendMode = 'offers' | 'none' | 'down' | 'slow' | 'junk' | 'error';

interface OfferRequest {
  verified: boolean;
  raw: string;
  body: {
    type: string;
    data: { workflowId: string; stepId: string; attempt: number; locale?: string | null; answers: Record<string, unknown> };
  };
}

/**
 * The partner's backend of work-authorization's appointment step as a partner would write it: a real HTTP server on
 * loopback that verifies each request with the `standardwebhooks` package and refuses what does not verify, then
 * answers two slots for the postcode sent (`offers`), none, junk, an error, nothing (`slow`); `down` closes its
 * listening port (connections refused).
 */
export async function startOfferBackend(secret: string) {
  const requests: OfferRequest[] = [];
  const verifier = new Webhook(secret);
  let mode: OfferBackendMode = 'offers';
  const held: ServerResponse[] = [];
  let server: Server = listen();
  function listen(port = 0): Server {
    const created = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        let verified = true;
        try {
          verifier.verify(raw, request.headers as Record<string, string>);
        } catch {
          verified = false;
        }
        requests.push({ verified, raw, body: JSON.parse(raw) as OfferRequest['body'] });
        if (!verified) return void response.writeHead(401).end();
        if (mode === 'slow') return void held.push(response);
        if (mode === 'junk') return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"slots":"soon"}');
        if (mode === 'error') return void response.writeHead(500).end();
        const postcode = (requests.at(-1)?.body.data.answers.postcode as { postcode: string }).postcode;
        const offer = {
          slots:
            mode === 'none'
              ? []
              : [
                  { id: `${postcode}-1`, startsAt: '2030-01-07T09:00:00.000Z', place: `Centre ${postcode}` },
                  { id: `${postcode}-2`, startsAt: '2030-01-08T14:30:00.000Z', place: `Centre ${postcode}` },
                ],
        };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(offer));
      });
    });
    created.listen(port, '127.0.0.1');
    return created;
  }
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const stop = () => {
    for (const response of held.splice(0)) response.destroy();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async set(next: OfferBackendMode) {
      if (mode === 'down' && next !== 'down') {
        server = listen(port);
        await new Promise((resolve) => server.once('listening', resolve));
      }
      if (next === 'down') await stop();
      if (mode === 'slow' && next !== 'slow') for (const response of held.splice(0)) response.destroy();
      mode = next;
    },
    close: () => (mode === 'down' ? Promise.resolve() : stop()),
  };
}
