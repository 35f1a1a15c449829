import { request } from 'node:http';
import { EMULATOR_PREFIX } from '@partner-task-kit/server/config';
import type { RunningServer } from '@partner-task-kit/server/server';
import { control } from './emulator-control';
import type { BlankTestDatabase } from './test-databases';
import { startTestServer } from './test-server';

/** A whole server in emulator mode (the platform's stand-in mounted in it), over real HTTP, its log lines kept. */
export interface PlatformServer {
  server: RunningServer;
  log: string[];
  emulator: ReturnType<typeof control>;
  /** Partner-task requests the stand-in received for one assigned task, with their statuses. */
  requestsFor(assignedTaskUuid: string): Promise<Array<number | null>>;
  close(): Promise<void>;
}

export async function startPlatformServer(database: BlankTestDatabase, env: Record<string, string> = {}): Promise<PlatformServer> {
  const server = await startTestServer({ LOG_LEVEL: 'info', ...env }, { database });
  const emulator = control(`${server.url}${EMULATOR_PREFIX}`);
  return {
    server,
    log: server.logLines,
    emulator,
    async requestsFor(assignedTaskUuid) {
      const requests = await emulator.requests('partnerTask');
      return requests.filter((entry) => entry.path.toLowerCase().endsWith(assignedTaskUuid.toLowerCase())).map((entry) => entry.status);
    },
    close: () => server.close(),
  };
}

export interface CallResult {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One JSON request from a given loopback address (127.0.0.0/8 is all this machine's): a server sees a different
 * client address per `from`, as it would for workers behind different networks.
 */
export function callFrom(
  from: string,
  url: string,
  options: { method?: string; body?: unknown; token?: string } = {},
): Promise<CallResult> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: options.method ?? (payload === undefined ? 'GET' : 'POST'),
        localAddress: from,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: response.statusCode ?? 0,
            body: text === '' ? undefined : (JSON.parse(text) as unknown),
            headers: response.headers,
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** The log lines that say a tenant's delivery was held or paused by its circuit. */
export function circuitOpenings(log: readonly string[]): string[] {
  return log.filter((line) => line.includes('delivery paused') || line.includes('delivery held'));
}
