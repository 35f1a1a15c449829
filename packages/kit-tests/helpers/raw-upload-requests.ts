import { request as httpRequest } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with its path exactly as given: no URL parser in between to resolve `..` or re-encode anything. */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
