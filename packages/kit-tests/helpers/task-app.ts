import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Registry } from 'prom-client';
import { devTools } from '@partner-task-kit/dev';
import { buildApp } from '@partner-task-kit/server/app';
import { parseConfig, type Config } from '@partner-task-kit/server/config';
import type { Logger } from '@partner-task-kit/server/logger';
import type { RateLimitSettings } from '@partner-task-kit/server/task-api/rate-limits';
import { directoryUploadFiles, type UploadFiles } from '@partner-task-kit/server/uploads/upload-files';
import type { UploadSettings } from '@partner-task-kit/server/uploads/upload-routes';
import type { SessionResponse } from '@partner-task-kit/workflow/contract/session';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { testDatabases, type TestDatabase, type TestDatabaseEngine } from './test-databases';
import { testWorkflows } from './test-workflows';
import type { WorkflowCatalog } from '@partner-task-kit/workflow/workflow-catalog';
import { callFrom } from './platform-server';
import { ManualClock } from './manual-clock';
import { newPartnerKey } from '@partner-task-kit/server/partner-api/partner-key-secret';
import { insertPartnerKey } from '@partner-task-kit/server/store/partner-keys.repository';

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
  /** The app's workflows; default: the fixtures (test-workflows.ts). */
  workflows?: WorkflowCatalog;
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
  const workflows = options.workflows ?? testWorkflows;
  const app = await buildApp({
    workflows,
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
            tools: devTools.emulatorMode({ workflows, receiveEvents: true, answerOffers: true }),
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

/** A new assigned task's context, each value fresh unless given (a company's, a task id in another case). */
export function newContext(given: Partial<TaskContext> = {}): TaskContext {
  return {
    wxWorkerUuid: randomUUID(),
    wxAssignedTaskUuid: randomUUID(),
    wxTaskFlowUuid: randomUUID(),
    wxCompanyUuid: randomUUID(),
    ...given,
  };
}

/** Where a session is asked for: an app built in this process (injected), or a server's URL (over HTTP). */
export type SessionTarget = FastifyInstance | string;

export interface SessionOptions {
  /** The link's workflow variable (docs/api.md#post-apisession). */
  workflow?: string;
  /** The loopback address the request comes from: a server tells workers behind different networks apart by it. */
  from?: string;
}

/** What POST /api/session answered: the token, or the refusal's code. */
export interface SessionAnswer {
  status: number;
  token?: string;
  code?: string;
  body: unknown;
  headers: Record<string, string | string[] | number | undefined>;
  context: TaskContext;
}

/** POST /api/session for `context`, as the page sends it when it opens, whatever it answers. */
export async function requestSession(
  target: SessionTarget,
  context: TaskContext = newContext(),
  options: SessionOptions = {},
): Promise<SessionAnswer> {
  const payload = options.workflow === undefined ? context : { ...context, workflow: options.workflow };
  const from = options.from ?? '127.0.0.1';
  const { status, body, headers } =
    typeof target === 'string'
      ? await callFrom(from, `${target}/api/session`, { body: payload })
      : await target.inject({ method: 'POST', url: '/api/session', payload, remoteAddress: from }).then((response) => ({
          status: response.statusCode,
          body: response.json() as unknown,
          headers: response.headers,
        }));
  const answer = body as { token?: string; error?: { code: string } } | undefined;
  return {
    status,
    body,
    headers,
    context,
    ...(answer?.token === undefined ? {} : { token: answer.token }),
    ...(answer?.error === undefined ? {} : { code: answer.error.code }),
  };
}

/** A session the test needs (it fails unless it is opened): its token and task, and the context it was opened with. */
export async function openSession(
  target: SessionTarget,
  context: TaskContext = newContext(),
  options: SessionOptions = {},
): Promise<SessionResponse & { context: TaskContext }> {
  const answer = await requestSession(target, context, options);
  if (answer.status !== 200) throw new Error(`POST /api/session answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return { ...(answer.body as SessionResponse), context };
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

/** A POST of the task API with the worker's session token, which must succeed: its answer's body. */
async function postAsWorker(target: SessionTarget, token: string, path: string, body: unknown = {}): Promise<unknown> {
  const { status, answer } =
    typeof target === 'string'
      ? await callFrom('127.0.0.1', `${target}${path}`, { body, token }).then((called) => ({ status: called.status, answer: called.body }))
      : await target
          .inject({ method: 'POST', url: path, headers: bearer(token), payload: body as object })
          .then((response) => ({ status: response.statusCode, answer: response.json() as unknown }));
  if (status !== 200) throw new Error(`POST ${path} answered ${status}: ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * A worker opens the task of `context` on the server at `serverUrl`, starts it and starts again, over HTTP: three
 * updates for the platform (ready, inProgress, ready) and one `task.restarted` owed to the partner.
 */
export async function restartedTask(serverUrl: string, context: TaskContext): Promise<string> {
  const { token } = await openSession(serverUrl, context);
  for (const action of ['start', 'restart']) await postAsWorker(serverUrl, token, `/api/task/${action}`);
  return context.wxAssignedTaskUuid;
}

/**
 * A worker of background-check opens it and consents: the task then waits on the partner's check
 * (docs/connecting-your-backend.md#steps-your-backend-completes). The session.
 */
export async function consentedToCheck(
  target: SessionTarget,
  context: TaskContext = newContext(),
  fullName = 'Ana López',
): Promise<SessionResponse & { context: TaskContext }> {
  const session = await openSession(target, context, { workflow: 'background-check' });
  await postAsWorker(target, session.token, '/api/task/steps/consent', { data: { fullName, agree: true } });
  return session;
}

/** A partner API key, stored as `npm run partner-keys -- create` stores it: the key, once, and its name. */
export async function createPartnerKey(
  t: TaskApp,
  options: { name?: string; companyUuid?: string } = {},
): Promise<{ key: string; name: string }> {
  const { key, prefix, keyHash } = newPartnerKey();
  const name = options.name ?? `key-${randomUUID().slice(0, 8)}`;
  const created = await insertPartnerKey(t.database.store.db, {
    ...{ name, prefix, keyHash },
    ...{ companyUuid: options.companyUuid ?? null, now: t.clock.now() },
  });
  if (!created.ok) throw new Error('the partner key was not created');
  return { key, name };
}
