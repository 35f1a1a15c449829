import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { listPending } from '@partner-task-kit/server/store/tenants.repository';
import { metricsLabelOf } from '@partner-task-kit/server/tenants/company-credentials';
import type { SessionResponse } from '@partner-task-kit/workflow/contract/session';
import { control } from '../helpers/emulator-control';
import { runKitCommand, runNodeScript } from '../helpers/run-command';
import { newContext, openSession, openTaskApp, requestSession } from '../helpers/task-app';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { tenantModeEnv, TEST_METRICS_TOKEN } from '../helpers/server-process';

/** Distinctive Secrets, so every file, log line and output can be searched for them (and for their Basic form). */
const companyA = { company: '3f0c9a1e-5b2d-4e8f-9a6c-1d7e2b4f8a0c', key: 'tenant-a-key', secret: 'tenant-a-secret-71c3e9d2b5a8' };
const companyA2 = { ...companyA, key: 'tenant-a-key-2', secret: 'tenant-a-rotated-secret-4f8e2a6c' };
const companyB = { company: '9d2e4f6a-8b0c-4d1e-a3f5-7b9c1d3e5f70', key: 'tenant-b-key', secret: 'tenant-b-secret-0e5a7c9b3d1f' };
const secrets = [companyA.secret, companyA2.secret, companyB.secret];
const basicForms = [companyA, companyA2, companyB].map((c) => Buffer.from(`${c.key}:${c.secret}`).toString('base64'));

let directory: string;
let emulator: RunningEmulator;
let server: TestServer | undefined;

beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-tenants-'));
  emulator = await startEmulator({ credentials: [companyA, companyA2, companyB].map(({ key, secret }) => ({ key, secret })) });
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await emulator.close();
  rmSync(directory, { recursive: true, force: true });
});

const environment = (extra: Record<string, string> = {}) =>
  tenantModeEnv(emulator.url, { DATABASE_URL: join(directory, 'tenants.db'), RATE_LIMIT_PER_TASK: '0', ...extra });

function tenants(args: string[], input?: string) {
  return runKitCommand('tenants', environment(), 20_000, args, input);
}

/** The keys the token requests were made with (docs/platform.md#token: HTTP Basic, the Key as user name), in order. */
async function tokenKeys(): Promise<string[]> {
  const requests = await control(emulator.url).requests('token');
  return requests.map((request) => {
    const header = String(request.headers.authorization ?? '');
    return (
      Buffer.from(header.replace(/^Basic /, ''), 'base64')
        .toString('utf8')
        .split(':')[0] ?? ''
    );
  });
}

const appliedFor = async (assignedTaskUuid: string) =>
  (await control(emulator.url).requests('partnerTask')).filter(
    (request) => request.path.endsWith(assignedTaskUuid) && request.status !== null && request.status < 300,
  ).length;

describe('tenant mode', () => {
  it('acts only for its tenants, each with its own credential and token, and counts the companies it refused', async () => {
    expect(await tenants(['add', '--company', companyA.company, '--key', companyA.key], `${companyA.secret}\n`)).toMatchObject({ code: 0 });
    // Letter case of the company is not significant (docs/platform.md#partner-task-configuration prints lower case; a portal may not).
    const addB = await tenants(['add', '--company', companyB.company.toUpperCase(), '--key', companyB.key], `${companyB.secret}\n`);
    expect(addB).toMatchObject({ code: 0 });
    const checkedByTheCli = (await tokenKeys()).length;
    server = await startTestServer({ ...environment(), LOG_LEVEL: 'trace' }, { tenantsRefreshMs: 200 });

    const a = await requestSession(server.url, newContext({ wxCompanyUuid: companyA.company }));
    const b = await requestSession(server.url, newContext({ wxCompanyUuid: companyB.company.toUpperCase() }));
    expect([a.status, b.status]).toEqual([200, 200]);
    const stranger = randomUUID();
    const refused = await requestSession(server.url, newContext({ wxCompanyUuid: stranger }));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'unknown_company', field: 'wxCompanyUuid' } });
    await requestSession(server.url, newContext({ wxCompanyUuid: stranger }));

    await expect.poll(() => appliedFor(a.context.wxAssignedTaskUuid)).toBe(1);
    await expect.poll(() => appliedFor(b.context.wxAssignedTaskUuid)).toBe(1);
    // One token per tenant, each obtained with its own Key; nothing was sent for the refused company.
    expect((await tokenKeys()).slice(checkedByTheCli).sort()).toEqual([companyA.key, companyB.key]);
    // Every update carried a token of its own company's credential (the emulator names the key a token was issued for).
    const updates = await control(emulator.url).requests('partnerTask');
    const keyOf = (uuid: string) => updates.filter((request) => request.path.endsWith(uuid)).map((request) => request.credentialKey);
    expect(keyOf(a.context.wxAssignedTaskUuid)).toEqual([companyA.key]);
    expect(keyOf(b.context.wxAssignedTaskUuid)).toEqual([companyB.key]);
    expect(await appliedFor(refused.context.wxAssignedTaskUuid)).toBe(0);
    const tasks = await server.store.db.selectFrom('tasks').select('company_uuid').execute();
    expect(tasks.map((task) => task.company_uuid.toLowerCase()).sort()).toEqual([companyA.company, companyB.company].sort());
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } })).text();
    // Each tenant by its label: the metrics name no company UUID (one is enough to open sessions for its tasks).
    expect(metrics).toContain(`partner_task_token_requests_total{tenant="${metricsLabelOf(companyA.company)}"} 1`);
    expect(metrics).toContain(`partner_task_token_requests_total{tenant="${metricsLabelOf(companyB.company)}"} 1`);
    for (const company of [companyA.company, companyB.company, stranger]) expect(metrics).not.toContain(company);

    const pending = await tenants(['pending']);
    expect(pending.stdout).toMatch(new RegExp(`^${stranger}  refused 2 time\\(s\\)  first \\S+  last \\S+\\n$`));
    const list = await tenants(['list']);
    expect(list.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^${companyA.company}  key ${companyA.key}  metrics ${metricsLabelOf(companyA.company)}  created \\S+  rotated -$`),
      ),
      expect.stringMatching(
        new RegExp(`^${companyB.company}  key ${companyB.key}  metrics ${metricsLabelOf(companyB.company)}  created \\S+  rotated -$`),
      ),
    ]);

    // The Secrets appear nowhere: not in the database files (WAL included), the logs (at trace), the CLI's output, the
    // metrics or an answer.
    const files = readdirSync(directory).map((name) => readFileSync(join(directory, name)).toString('latin1'));
    const outputs = [pending, list, addB].map((result) => result.stdout + result.stderr);
    const answers = [metrics, await (await fetch(`${server.url}/api/openapi.json`)).text(), JSON.stringify(a.body)];
    for (const text of [...files, server!.logLines.join('\n'), ...outputs, ...answers]) {
      for (const secret of [...secrets, ...basicForms]) expect(text).not.toContain(secret);
    }
  }, 30_000);

  it('uses a rotated credential within seconds, holds a removed tenant’s updates and delivers them when it is added again', async () => {
    await tenants(['add', '--company', companyA.company, '--key', companyA.key], `${companyA.secret}\n`);
    await tenants(['add', '--company', companyB.company, '--key', companyB.key], `${companyB.secret}\n`);
    server = await startTestServer({ ...environment(), LOG_LEVEL: 'trace' }, { tenantsRefreshMs: 200 });
    const a = await requestSession(server.url, newContext({ wxCompanyUuid: companyA.company }));
    const b = await requestSession(server.url, newContext({ wxCompanyUuid: companyB.company }));
    await expect.poll(() => appliedFor(a.context.wxAssignedTaskUuid)).toBe(1);
    await expect.poll(() => appliedFor(b.context.wxAssignedTaskUuid)).toBe(1);

    // Rotation: the next token of A is asked for with the new Key, without a restart.
    const rotated = await tenants(['rotate', '--company', companyA.company, '--key', companyA2.key], `${companyA2.secret}\n`);
    expect(rotated).toMatchObject({ code: 0 });
    const rotatedAt = Date.now();
    const second = await requestSession(server.url, newContext({ wxCompanyUuid: companyA.company }));
    await expect.poll(() => appliedFor(second.context.wxAssignedTaskUuid), { timeout: 10_000 }).toBe(1);
    expect(Date.now() - rotatedAt).toBeLessThan(10_000);
    expect(await tokenKeys()).toContain(companyA2.key);

    // Removal: new sessions are refused; an update of a task already open is written and held, not sent.
    const bSession = b.body as SessionResponse;
    expect(await tenants(['remove', '--company', companyB.company])).toMatchObject({ code: 0 });
    // Asked with B's own task: a new task opened while the removal is on its way would write an update of its own.
    await expect.poll(async () => (await requestSession(server!.url, b.context)).status, { timeout: 10_000 }).toBe(403);
    const started = await fetch(`${server.url}/api/task/start`, { method: 'POST', headers: { authorization: `Bearer ${bSession.token}` } });
    expect(started.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await appliedFor(b.context.wxAssignedTaskUuid)).toBe(1);
    const status = await runKitCommand('outbox', environment(), 20_000, ['status']);
    expect(status.stdout).toMatch(/^platform .*\n {2}pending {4}1 /m);

    // Added again: the held update goes by itself.
    await tenants(['add', '--company', companyB.company, '--key', companyB.key], `${companyB.secret}\n`);
    await expect.poll(() => appliedFor(b.context.wxAssignedTaskUuid), { timeout: 10_000 }).toBe(2);
  }, 40_000);

  it('loses nothing when the old credential is revoked during a rotation under load: all delivered within 60 s', async () => {
    await tenants(['add', '--company', companyA.company, '--key', companyA.key], `${companyA.secret}\n`);
    server = await startTestServer({ ...environment(), LOG_LEVEL: 'trace' }, { tenantsRefreshMs: 200 });
    const opened: Array<{ wxAssignedTaskUuid: string }> = [];
    let loading = true;
    const load = (async () => {
      while (loading) {
        const { status, context } = await requestSession(server!.url, newContext({ wxCompanyUuid: companyA.company }));
        if (status === 200) opened.push(context);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    // expect.poll gives up after 1 s by default: on a busy machine ten sessions may take longer to open.
    await expect.poll(() => opened.length, { timeout: 20_000 }).toBeGreaterThan(10);
    // The old key is revoked before the server hears of the new one: its token answers 401 (docs/platform.md#token), the token
    // endpoint refuses it, and the updates written meanwhile wait for the rotation.
    await control(emulator.url).revokeCredential(companyA.key);
    await expect
      .poll(async () => (await control(emulator.url).requests()).some((request) => request.status === 401), { timeout: 20_000 })
      .toBe(true);
    const rotatedAt = Date.now();
    await tenants(['rotate', '--company', companyA.company, '--key', companyA2.key], `${companyA2.secret}\n`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    loading = false;
    await load;

    const accepted = opened.length;
    await expect
      .poll(async () => (await server!.store.db.selectFrom('outbox').select('id').where('state', '=', 'pending').execute()).length, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(0);
    expect(Date.now() - rotatedAt).toBeLessThan(60_000);
    for (const context of opened) expect(await appliedFor(context.wxAssignedTaskUuid)).toBe(1);
    expect(accepted).toBe(opened.length);
    expect((await server.store.db.selectFrom('outbox').select('id').where('state', '=', 'dead').execute()).length).toBe(0);
  }, 90_000);

  it('refuses a session for a task bound to another context with 409, logs both contexts, and frees it on release', async () => {
    await tenants(['add', '--company', companyA.company, '--key', companyA.key], `${companyA.secret}\n`);
    server = await startTestServer({ ...environment(), LOG_LEVEL: 'trace' }, { tenantsRefreshMs: 200 });
    const first = await requestSession(server.url, newContext({ wxCompanyUuid: companyA.company }));
    const worker = { ...first.context, wxWorkerUuid: randomUUID() };
    const refused = await requestSession(server.url, worker);
    expect([refused.status, refused.code]).toEqual([409, 'context_mismatch']);
    const events = server!.logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.event === 'context_mismatch');
    expect(events).toEqual([
      expect.objectContaining({
        assignedTaskUuid: first.context.wxAssignedTaskUuid,
        bound: expect.objectContaining({ worker: first.context.wxWorkerUuid, company: companyA.company }),
        presented: expect.objectContaining({ worker: worker.wxWorkerUuid, company: companyA.company }),
      }),
    ]);

    const released = await runKitCommand('tasks', environment(), 20_000, ['release', first.context.wxAssignedTaskUuid]);
    expect(released.stdout).toMatch(
      new RegExp(`^released ${first.context.wxAssignedTaskUuid}: it was bound to worker ${first.context.wxWorkerUuid}`),
    );
    expect((await requestSession(server.url, worker)).status).toBe(200);
  }, 30_000);

  it("npm run doctor checks every tenant's credential and names the failing one", async () => {
    await tenants(['add', '--company', companyA.company, '--key', companyA.key], `${companyA.secret}\n`);
    await tenants(['add', '--company', companyB.company, '--key', companyB.key], `${companyB.secret}\n`);
    // B's key is revoked in the platform after it was added.
    await control(emulator.url).revokeCredential(companyB.key);
    const result = await runKitCommand('doctor', environment());
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Checking tenant mode/);
    expect(result.stdout).toMatch(new RegExp(`ok {3}company ${companyA.company} \\(key ${companyA.key}\\): token \\(spec 4\\.1\\)`));
    expect(result.stdout).toMatch(new RegExp(`FAIL company ${companyB.company} \\(key ${companyB.key}\\): token \\(spec 4\\.1\\)`));
    for (const secret of [...secrets, ...basicForms]) expect(result.stdout + result.stderr).not.toContain(secret);
  }, 30_000);

  it("runs a flow's mapped workflow when the link names none; the link's variable wins", async () => {
    await tenants(['add', '--company', companyA.company, '--key', companyA.key], `${companyA.secret}\n`);
    const flow = randomUUID();
    expect(await tenants(['map-flow', '--company', companyA.company, '--flow', flow, '--workflow', 'nope'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/expected --workflow with one of .*availability/),
    });
    expect(
      await tenants(['map-flow', '--company', companyA.company, '--flow', flow.toUpperCase(), '--workflow', 'availability']),
    ).toMatchObject({
      code: 0,
    });
    expect((await tenants(['flows'])).stdout).toBe(`${companyA.company}  flow ${flow}  availability\n`);
    server = await startTestServer({ ...environment(), LOG_LEVEL: 'trace' }, { tenantsRefreshMs: 200 });
    const session = async (wxTaskFlowUuid: string, workflow?: string) => {
      const context = newContext({ wxCompanyUuid: companyA.company, wxTaskFlowUuid });
      return (await openSession(server!.url, context, workflow === undefined ? {} : { workflow })).task.workflow.id;
    };
    expect(await session(flow)).toBe('availability');
    expect(await session(flow, 'safety-training')).toBe('safety-training');
    expect(await session(randomUUID())).toBe('safety-training');
    expect(await tenants(['unmap-flow', '--company', companyA.company, '--flow', flow])).toMatchObject({ code: 0 });
    expect(await session(flow)).toBe('safety-training');
  }, 30_000);

  it('stops at start, naming CREDENTIALS_KEY, when the key cannot open the stored Secrets', async () => {
    await tenants(['add', '--company', companyA.company, '--key', companyA.key], `${companyA.secret}\n`);
    const result = await runNodeScript('packages/kit-tests/fixtures/kit-main.ts', {
      ...environment(),
      CREDENTIALS_KEY: Buffer.alloc(32, 1).toString('base64'),
      PORT: '0',
    });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain('CREDENTIALS_KEY cannot open the stored Secret of company');
    expect(result.stdout + result.stderr).not.toContain(companyA.secret);
  });

  it('refuses to add a credential the platform refuses, and reads the Secret only from standard input', async () => {
    const wrong = await tenants(['add', '--company', companyA.company, '--key', companyA.key], 'not-the-secret\n');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/add: the platform refused this credential/);
    const empty = await tenants(['add', '--company', companyA.company, '--key', companyA.key], '');
    expect(empty).toMatchObject({ code: 2, stderr: expect.stringMatching(/expected the Secret on standard input/) });
    expect((await tenants(['list'])).stdout).toBe('');
  });
});

describe('the single credential restricted by WX_COMPANY_UUIDS', () => {
  it('refuses a session of another company with 403 unknown_company, storing no task and counting the company', async () => {
    const served = randomUUID();
    const taskApp = await openTaskApp({ env: { WX_COMPANY_UUIDS: served.toUpperCase() } });
    try {
      const context = (company: string) => ({
        wxWorkerUuid: randomUUID(),
        wxAssignedTaskUuid: randomUUID(),
        wxTaskFlowUuid: randomUUID(),
        wxCompanyUuid: company,
      });
      const other = randomUUID();
      const refused = await taskApp.app.inject({ method: 'POST', url: '/api/session', payload: context(other) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { code: 'unknown_company' } });
      expect(await taskApp.database.store.db.selectFrom('tasks').select('id').execute()).toEqual([]);
      expect(taskApp.wakes()).toBe(0);
      expect(await listPending(taskApp.database.store.db)).toEqual([expect.objectContaining({ companyUuid: other, refusals: 1 })]);

      const accepted = await taskApp.app.inject({ method: 'POST', url: '/api/session', payload: context(served) });
      expect(accepted.statusCode).toBe(200);
    } finally {
      await taskApp.close();
    }
  });
});

describe('a task the platform rejected', () => {
  it('answers 410 task_rejected to every call of its sessions and to a new session for it', async () => {
    const taskApp = await openTaskApp();
    try {
      const context = {
        wxWorkerUuid: randomUUID(),
        wxAssignedTaskUuid: randomUUID(),
        wxTaskFlowUuid: randomUUID(),
        wxCompanyUuid: randomUUID(),
      };
      const opened = await taskApp.app.inject({ method: 'POST', url: '/api/session', payload: context });
      const { token } = opened.json<SessionResponse>();
      await taskApp.database.store.db.updateTable('tasks').set({ rejected_at: Date.now(), rejected_reason: 'HTTP 404' }).execute();
      const authorization = `Bearer ${token}`;
      const calls = [
        { method: 'GET', url: '/api/task' },
        { method: 'GET', url: '/api/task/updates' },
        { method: 'POST', url: '/api/task/start' },
        { method: 'POST', url: '/api/task/restart' },
      ] as const;
      for (const call of calls) {
        const response = await taskApp.app.inject({ ...call, headers: { authorization } });
        expect([call.url, response.statusCode, response.json().error.code]).toEqual([call.url, 410, 'task_rejected']);
      }
      const again = await taskApp.app.inject({ method: 'POST', url: '/api/session', payload: context });
      expect([again.statusCode, again.json().error.code]).toEqual([410, 'task_rejected']);
    } finally {
      await taskApp.close();
    }
  });
});
