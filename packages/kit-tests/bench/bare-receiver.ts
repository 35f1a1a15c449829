import http from 'node:http';
import type { Socket } from 'node:net';

/**
 * The partner's backend at its cheapest, for packages/kit-tests/bench/partner-events.ts: node:http reading each body and answering 204,
 * nothing checked. In a process of its own (as a partner's backend would be), so its work does not share the event
 * loop of the relay that sends to it. It counts the requests and the connections they came on, and tells its parent
 * on asking. The connections, not the requests held at once, show the sender's concurrency: a body this small is read
 * and answered before the next request's bytes are, so the receiver never holds two.
 */
let requests = 0;
const connections = new Set<Socket>();

const server = http.createServer((request, response) => {
  connections.add(request.socket);
  request.resume();
  request.once('end', () => {
    requests += 1;
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.send?.({ url: `http://127.0.0.1:${port}/events` });
});

process.on('message', (message: { ask?: string }) => {
  if (message.ask === 'reset') {
    requests = 0;
    connections.clear();
  }
  process.send?.({ requests, connections: connections.size });
});
process.once('SIGTERM', () => process.exit(0));
