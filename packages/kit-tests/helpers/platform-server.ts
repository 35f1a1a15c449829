import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { EMULATOR_PREFIX, parseConfig } from '@partner-task-kit/server/config';
import { createLogger } from '@partner-task-kit/server/logger';
import { startServer, type RunningServer } from '@partner-task-kit/server/server';
import { openStore, type Store, type StoreOptions } from '@partner-task-kit/server/store/store';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { control } from './emulator-control';
import { testPostgresUrl } from './test-databases';
import { testWorkflows } from './test-workflows';

/** Where a whole server keeps its data in a test: a SQLite file, or a Postgres schema of its own. */
export interface ServerDatabase {
  env: Record<string, string>;
  store: StoreOptions;
  /** The same database opened directly, as a CLI would: to prepare it before the server starts. */
  open(): Promise<Store>;
  remove(): Promise<void>;
}

export function serverDatabase(engine: 'sqlite' | 'postgres'): ServerDatabase {
  if (engine === 'sqlite') {
    const directory = mkdtempSync(join(tmpdir(), 'ptk-platform-'));
    const filename = join(directory, 'store.db');
    return {
      env: { DATABASE_URL: filename },
      store: {},
      open: () => openStore({ kind: 'sqlite', filename }),
      remove: async () => rmSync(directory, { recursive: true, force: true }),
    };
  }
  const schema = `test_${randomBytes(8).toString('hex')}`;
  return {
    env: { DATABASE_URL: testPostgresUrl },
    store: { schema },
    open: () => openStore({ kind: 'postgres', url: testPostgresUrl }, { schema }),
    async remove() {
      const client = new pg.Client({ connectionString: testPostgresUrl });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A whole server in emulator mode (the platform's stand-in mounted in it), over real HTTP, its log lines kept. */
export interface PlatformServer {
  server: RunningServer;
  log: string[];
  emulator: ReturnType<typeof control>;
  /** Partner-task requests the stand-in received for one assigned task, with their statuses. */
  requestsFor(assignedTaskUuid: string): Promise<Array<number | null>>;
  close(): Promise<void>;
}

export async function startPlatformServer(database: ServerDatabase, env: Record<string, string> = {}): Promise<PlatformServer> {
  const parsed = parseConfig({ ...database.env, PORT: '0', LOG_LEVEL: 'info', ...env });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const log: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      log.push(chunk.toString());
      callback();
    },
  });
  const server = await startServer(parsed.config, { workflows: testWorkflows, log: createLogger('info', stream), store: database.store });
  const emulator = control(`${server.url}${EMULATOR_PREFIX}`);
  return {
    server,
    log,
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

export function contextOf(companyUuid: string, assignedTaskUuid: string = randomUUID()): TaskContext {
  return { wxWorkerUuid: randomUUID(), wxAssignedTaskUuid: assignedTaskUuid, wxTaskFlowUuid: randomUUID(), wxCompanyUuid: companyUuid };
}

/** Opens a session from `from`; the token, or the refusal's status and code. */
export async function openSessionFrom(
  from: string,
  serverUrl: string,
  context: TaskContext,
): Promise<{ status: number; token?: string; code?: string }> {
  const answer = await callFrom(from, `${serverUrl}/api/session`, { body: context });
  const body = answer.body as { token?: string; error?: { code: string } };
  return { status: answer.status, ...(body.token ? { token: body.token } : {}), ...(body.error ? { code: body.error.code } : {}) };
}

/** The log lines that say a tenant's delivery was held or paused by its circuit. */
export function circuitOpenings(log: readonly string[]): string[] {
  return log.filter((line) => line.includes('delivery paused') || line.includes('delivery held'));
}
