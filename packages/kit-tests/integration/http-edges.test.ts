import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@partner-task-kit/workflow/contract/api-errors';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;
const address = () => new URL(server.url);

beforeAll(async () => {
  server = await startTestServer({ REQUEST_TIMEOUT_MS: '1500', HEADERS_TIMEOUT_MS: '800', KEEP_ALIVE_TIMEOUT_MS: '800' });
});

afterAll(() => server.close());

/** Opens a raw connection, writes `text` and never finishes; resolves with how long until the server hung up. */
function stall(text: string): Promise<{ closedAfterMs: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answer = '';
    const socket = connect(Number(address().port), address().hostname, () => socket.write(text));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ closedAfterMs: performance.now() - started, answer }));
    setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept a stalled connection open for 10 s'));
    }, 10_000);
  });
}

describe('a stalled client is cut off within seconds', () => {
  it('headers that never end', async () => {
    const { closedAfterMs, answer } = await stall('POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n');
    expect(closedAfterMs).toBeLessThan(5_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 .*\{"error":\{"code":"request_timeout"/s);
  });

  it('a body that never ends', async () => {
    const { closedAfterMs } = await stall(
      'POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"wxWorkerUuid":',
    );
    expect(closedAfterMs).toBeLessThan(5_000);
  });

  it('a request that is not HTTP gets the error body too', async () => {
    const { answer } = await stall('HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 .*\{"error":\{"code":"bad_request"/s);
  });

  it('an idle keep-alive connection', async () => {
    const { closedAfterMs, answer } = await stall('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(closedAfterMs).toBeLessThan(5_000);
  });
});

describe("every error answer has the contract's shape, the framework's own included", () => {
  const json = { 'content-type': 'application/json' };
  const cases: Array<[string, { method: string; path: string; headers?: Record<string, string>; body?: string }]> = [
    ['malformed JSON', { method: 'POST', path: '/api/session', headers: json, body: '{"wx' }],
    ['an empty JSON body', { method: 'POST', path: '/api/task/start', headers: json, body: '' }],
    ['a content type it does not speak', { method: 'POST', path: '/api/session', headers: { 'content-type': 'text/xml' }, body: '<a/>' }],
    ['a body over the limit', { method: 'POST', path: '/api/session', headers: json, body: JSON.stringify({ x: 'a'.repeat(70_000) }) }],
    ['an unknown route', { method: 'GET', path: '/api/nothing-here' }],
    ['a method the route does not take', { method: 'DELETE', path: '/api/session' }],
    ['a method on an operations route', { method: 'POST', path: '/healthz' }],
    ['a malformed URL', { method: 'GET', path: '/api/%E0%A4%A' }],
    ['a missing session', { method: 'GET', path: '/api/task' }],
    ['a bad session', { method: 'GET', path: '/api/task', headers: { authorization: 'Bearer nope' } }],
    ['an invalid context', { method: 'POST', path: '/api/session', headers: json, body: '{"wxWorkerUuid":"x"}' }],
  ];

  it.each(cases)('%s', async (_name, request) => {
    const response = await fetch(`${server.url}${request.path}`, {
      method: request.method,
      ...(request.headers ? { headers: request.headers } : {}),
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(errorBodySchema.safeParse(await response.json()).error).toBeUndefined();
  });
});

describe('the task API takes JSON bodies only', () => {
  const context = JSON.stringify({
    wxWorkerUuid: '5e1c7a90-3b2d-4f8e-9a61-0c4d2b7e8f13',
    wxAssignedTaskUuid: '6a2d8b01-4c3e-4a9f-8b72-1d5e3c8f9a24',
    wxTaskFlowUuid: '7b3e9c12-5d4f-4b0a-9c83-2e6f4d9a0b35',
    wxCompanyUuid: '8c4f0d23-6e5a-4c1b-8d94-3f7a5e0b1c46',
  });

  it.each([
    { name: 'a text/plain body', contentType: 'text/plain' },
    { name: 'a text/plain; charset=utf-8 body', contentType: 'text/plain; charset=utf-8' },
    // What fetch sends for a string body given no content type: text/plain;charset=UTF-8.
    { name: 'a string body with no content type', contentType: undefined },
  ])('answers $name with 415 unsupported_media_type, even when it holds JSON', async ({ contentType }) => {
    const response = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      ...(contentType === undefined ? {} : { headers: { 'content-type': contentType } }),
      body: context,
    });
    expect(response.status).toBe(415);
    expect(errorBodySchema.parse(await response.json()).error.code).toBe('unsupported_media_type');
  });
});

describe('while the server closes', () => {
  it('answers a request still arriving on an open connection with 503 shutting_down, in the contract shape', async () => {
    const closingServer = await startTestServer();
    const url = new URL(closingServer.url);
    let answer = '';
    const socket = connect(Number(url.port), url.hostname);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const hungUp = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.on('connect', resolve));
    // A request in flight (its body not yet sent) keeps the connection busy while the close begins; the next request
    // on the same connection arrives after it.
    socket.write('POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = closingServer.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write('{}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await hungUp;
    await closed;
    const second = answer.slice(answer.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    const body = errorBodySchema.parse(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)));
    expect(body.error.code).toBe('shutting_down');
  });
});
