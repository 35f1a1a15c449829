import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Registry } from 'prom-client';
import { devTools } from '@partner-task-kit/dev';
import { buildApp } from '@partner-task-kit/server/app';
import { ManualClock } from '@partner-task-kit/server/clock';
import { parseConfig, type Config } from '@partner-task-kit/server/config';
import type { Logger } from '@partner-task-kit/server/logger';
import type { RateLimitSettings } from '@partner-task-kit/server/task-api/rate-limits';
import { directoryUploadFiles, type UploadFiles } from '@partner-task-kit/server/uploads/upload-files';
import type { UploadSettings } from '@partner-task-kit/server/uploads/upload-routes';
import type { SessionResponse } from '@partner-task-kit/workflow/contract/session';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { testDatabases, type TestDatabase, type TestDatabaseEngine } from './test-databases';
import { testWorkflows } from './test-workflows';

/** Distinctive values, so a test can grep every answer for them: no secret may appear in any API answer. */
export const TEST_SECRETS = {
  WX_API_KEY: 'ptk-test-key-8c1f0e2a',
  WX_API_SECRET: 'ptk-test-secret-5b7d93c4e1f0',
  SESSION_SECRET: 'ptk-test-session-secret-0123456789abcdef',
  // 32 bytes, base64url: the key that seals sensitive answers (docs/configuration.md#sensitive-values).
  SENSITIVE_DATA_KEYS: 'test-2026:cHRrLXRlc3Qtc2Vuc2l0aXZlLWtleS0zMi1ieXRlcyE',
} as const;

export const TEST_PORTAL_ORIGIN = 'https://portal.example.com';

export interface TaskApp {
  app: FastifyInstance;
  database: TestDatabase;
  clock: ManualClock;
  config: Config;
  /** How many times a request woke the relay. */
  wakes: () => number;
  /** Where the app keeps uploads' bytes: the option's, or a directory of this app's own, removed by `close`. */
  uploadFiles: UploadFiles;
  close(): Promise<void>;
}

export interface TaskAppOptions {
  engine?: TestDatabaseEngine;
  env?: Record<string, string>;
  rateLimits?: RateLimitSettings | false;
  /** A directory holding a built page (index.html); default: no page. */
  pageDirectory?: string;
  uploads?: UploadSettings;
  /** Where uploads' bytes go; default a directory of the app's own, never the configuration's `./data`. */
  uploadFiles?: UploadFiles;
  /** Where the app logs; default: nowhere. */
  log?: Logger;
}

/**
 * The real app (buildApp) on a fresh database, in production mode (a credential set, no emulator) so the configured
 * key and secret exist to be looked for. Rate limits are off unless a test asks for them.
 */
export async function openTaskApp(options: TaskAppOptions = {}): Promise<TaskApp> {
  const parsed = parseConfig({
    ...TEST_SECRETS,
    WX_AUTH_URL: 'http://127.0.0.1:9/auth',
    WX_BASE_URL: 'http://127.0.0.1:9/base',
    WX_TASK_BASE_URL: 'http://127.0.0.1:9/task',
    PORTAL_ORIGINS: TEST_PORTAL_ORIGIN,
    PARTNER_URL_TEMPLATE: 'https://partner.example.com/tasks/{assignedTaskUuid}',
    ...options.env,
  });
  if (!parsed.ok) throw new Error(`test configuration is invalid: ${parsed.problems.join('; ')}`);
  const config = parsed.config;
  const database = await (options.engine ?? testDatabases[0]!).open();
  const clock = new ManualClock(Date.parse('2026-03-01T09:00:00.000Z'));
  const ownUploads = options.uploadFiles ? undefined : mkdtempSync(join(tmpdir(), 'ptk-app-uploads-'));
  const uploadFiles = options.uploadFiles ?? directoryUploadFiles(ownUploads!);
  let wakes = 0;
  const app = await buildApp({
    workflows: testWorkflows,
    config,
    clock,
    store: database.store,
    metrics: new Registry(),
    ...(options.log ? { log: options.log } : {}),
    onUpdateEnqueued: () => {
      wakes += 1;
    },
    // Emulator mode takes the dev tools, as server.ts hands them in; nothing listens at the stand-in's own address here.
    ...(config.emulatorMode
      ? {
          emulatorMode: {
            tools: devTools.emulatorMode({ workflows: testWorkflows, receiveEvents: true, answerOffers: true }),
            selfUrl: 'http://127.0.0.1:9',
          },
        }
      : {}),
    taskOptions: {
      rateLimits: options.rateLimits ?? false,
      pageDirectory: options.pageDirectory ?? false,
      ...(options.uploads ? { uploads: options.uploads } : {}),
      uploadFiles,
    },
  });
  await app.ready();
  return {
    app,
    database,
    clock,
    config,
    wakes: () => wakes,
    uploadFiles,
    close: async () => {
      await app.close();
      await database.cleanup();
      if (ownUploads) rmSync(ownUploads, { recursive: true, force: true });
    },
  };
}

export function newContext(): TaskContext {
  return { wxWorkerUuid: randomUUID(), wxAssignedTaskUuid: randomUUID(), wxTaskFlowUuid: randomUUID(), wxCompanyUuid: randomUUID() };
}

export async function openSession(
  app: FastifyInstance,
  context: TaskContext = newContext(),
): Promise<SessionResponse & { context: TaskContext }> {
  const response = await app.inject({ method: 'POST', url: '/api/session', payload: context });
  if (response.statusCode !== 200) throw new Error(`POST /api/session answered ${response.statusCode}: ${response.body}`);
  return { ...(response.json() as SessionResponse), context };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** The session endpoints, as (method, url, body) rows for table-driven tests. */
export const sessionEndpoints = [
  { method: 'GET', url: '/api/task', body: undefined },
  { method: 'POST', url: '/api/task/start', body: {} },
  { method: 'POST', url: '/api/task/steps/welcome', body: { data: {} } },
  { method: 'POST', url: '/api/task/restart', body: {} },
  { method: 'GET', url: '/api/task/updates', body: undefined },
] as const;

export function errorCode(response: LightMyRequestResponse): string | undefined {
  return (response.json() as { error?: { code?: string } }).error?.code;
}
