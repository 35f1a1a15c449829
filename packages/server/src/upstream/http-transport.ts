import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';

export interface HeaderReader {
  get(name: string): string | null;
}

export interface HttpReply {
  status: number;
  headers: HeaderReader;
  /** The body, or only its first `maxAnswerBytes` when `truncated`. */
  text: string;
  /** The body went on past `maxAnswerBytes`: the rest was never read, and the connection was closed. */
  truncated: boolean;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** For the whole exchange: connecting, sending, and reading the answer (as far as it is read). */
  timeoutMs: number;
  /**
   * The most of the answer's body read, decided by what the caller needs of it (a status and the start of an error
   * message, or a JSON document of known size). The peer decides how much it sends: a body read whole, however
   * large, once took the process down (a 560 MB answer is more than a string holds).
   */
  maxAnswerBytes: number;
}

export type HttpTransport = (url: string, request: HttpRequest) => Promise<HttpReply>;

/** Thrown when an exchange outlives its timeout; `classifyFetchError` reads the name. */
class HttpTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Plain node:http(s) with keep-alive agents. Measured here it sends about 1.8 times as many requests per second as
 * global fetch for the same CPU (packages/kit-tests/bench/delivery.ts), which matters because the relay's throughput is mostly this.
 * undici's request API spent half the CPU per request, but the server's peak RSS under load rose from about 135 to
 * 210 MB with it (packages/kit-tests/bench/api.ts), past the 150 MB it keeps to.
 * Redirects are not followed: a 3xx is answered as it is (following one could carry credentials away).
 */
export function createHttpTransport(options: { maxSockets?: number } = {}): { send: HttpTransport; close(): void } {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 128, scheduling: 'lifo' as const };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  const send: HttpTransport = (url, request) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
      const requester = target.protocol === 'https:' ? https.request : http.request;
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      const outgoing = requester(
        target,
        {
          method: request.method,
          agent,
          headers: { ...request.headers, 'content-length': String(body?.length ?? 0) },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          let length = 0;
          let answered = false;
          const answer = (truncated: boolean) => {
            answered = true;
            clearTimeout(timer);
            const bytes = Buffer.concat(chunks);
            resolve({
              status: incoming.statusCode ?? 0,
              headers: { get: (name) => headerValue(incoming.headers[name.toLowerCase()]) },
              // A cut may fall inside a character: the decoder keeps its first bytes back instead of a U+FFFD.
              text: truncated ? new StringDecoder('utf8').write(bytes) : bytes.toString('utf8'),
              truncated,
            });
          };
          incoming.on('data', (chunk: Buffer) => {
            if (answered) return;
            const room = request.maxAnswerBytes - length;
            if (chunk.length <= room) {
              chunks.push(chunk);
              length += chunk.length;
              return;
            }
            chunks.push(chunk.subarray(0, room));
            answer(true);
            // Reading the rest would take what the peer chooses to send; closing the connection ends it now (it is
            // not reused: the rest of the answer is still on its way).
            incoming.destroy();
          });
          incoming.on('error', fail);
          incoming.on('end', () => answer(false));
        },
      );
      const timer = setTimeout(() => outgoing.destroy(new HttpTimeoutError(`no answer within ${request.timeoutMs} ms`)), request.timeoutMs);
      function fail(error: Error) {
        clearTimeout(timer);
        reject(error);
      }
      outgoing.on('error', fail);
      outgoing.end(body);
    });

  return {
    send,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
