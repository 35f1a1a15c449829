import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { control } from '../helpers/emulator-control';
import { runKitCommand } from '../helpers/run-command';
import { runRetention } from '@partner-task-kit/server/retention/retention-job';
import { platformEnv, spawnServer, type ServerProcess } from '../helpers/server-process';
import { bearer, newContext, openTaskApp } from '../helpers/task-app';
import { testDatabase, testDatabases, type BlankTestDatabase } from '../helpers/test-databases';
import { deliverEverything } from '../helpers/worker-answers';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

/*
 * docs/connecting-your-backend.md#sensitive-values, end to end on a real server process at LOG_LEVEL=trace: after the
 * `national-id` step its clear value is in no database file (the WAL included), no log line, no platform update, no
 * event, no `GET /api/task`, no partner API answer without a reveal and no export; a reveal key sees it, and the
 * reveal is recorded. An erasure then removes the sealed value too.
 */

const NATIONAL_ID = 'ZQ73159048';
const MASKED = '••••48';

describe.each(['sqlite', 'postgres'] as const)('a sensitive value, on %s', (engine) => {
  let directory: string;
  let emulator: RunningEmulator;
  let receiver: WebhookReceiver;
  let database: BlankTestDatabase;
  let server: ServerProcess | undefined;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-sensitive-'));
    emulator = await startEmulator();
    receiver = await startWebhookReceiver();
    database = await testDatabase(engine).create();
  });

  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = undefined;
    await receiver.close();
    await emulator.close();
    await database.cleanup();
    rmSync(directory, { recursive: true, force: true });
  });

  it('is sealed at rest, masked everywhere it is shown or sent, and revealed only to a reveal key, recorded', async () => {
    const env = platformEnv(emulator.url, {
      DATABASE_URL: database.url,
      LOG_LEVEL: 'trace',
      LOG_FORMAT: 'json',
      PARTNER_WEBHOOK_URL: receiver.url,
      PARTNER_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
    });
    const running = await spawnServer(env, 30_000);
    server = running;
    const cli = async (command: string, args: string[]) => {
      const result = await runKitCommand(command, env, 30_000, args);
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    const auditorKey = (await cli('partner-keys', ['create', '--name', 'auditor', '--reveal-sensitive'])).trim();
    const crmKey = (await cli('partner-keys', ['create', '--name', 'crm'])).trim();
    expect(await cli('partner-keys', ['list'])).toMatch(/^auditor .* reveals sensitive /m);

    const context = {
      wxWorkerUuid: randomUUID(),
      wxAssignedTaskUuid: randomUUID(),
      wxTaskFlowUuid: randomUUID(),
      wxCompanyUuid: randomUUID(),
    };
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const response = await fetch(`${running.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, text: await response.text() };
    };
    const opened = await fetch(`${running.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...context, workflow: 'work-authorization' }),
    });
    expect(opened.status).toBe(200);
    const { token } = (await opened.json()) as { token: string };
    expect((await call('POST', '/api/task/steps/citizenship', token, { data: { citizen: true } })).status).toBe(200);
    // Lower case on purpose: the schema upper-cases it, and what is sealed is what the schema gave.
    const saved = await call('POST', '/api/task/steps/national-id', token, { data: { nationalId: NATIONAL_ID.toLowerCase() } });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain(MASKED);
    expect(saved.text).not.toContain(NATIONAL_ID);

    // Delivered: the platform's updates of the step, and its event at the partner's backend.
    const platform = control(emulator.url);
    const updateBodies = async () => (await platform.requests('partnerTask')).map((request) => JSON.stringify(request.body));
    await expect.poll(async () => (await updateBodies()).some((body) => body.includes('national ID')), { timeout: 20_000 }).toBe(true);
    await expect
      .poll(() => receiver.received.map((request) => request.body).filter((body) => body.includes('"stepId":"national-id"')).length, {
        timeout: 20_000,
      })
      .toBe(1);
    const event = receiver.received.map((request) => request.body).find((body) => body.includes('"stepId":"national-id"'))!;
    expect(JSON.parse(event)).toMatchObject({ type: 'task.step_saved', data: { stepData: { nationalId: MASKED } } });

    const view = await call('GET', '/api/task', token);
    expect(view.status).toBe(200);
    expect(JSON.parse(view.text)).toMatchObject({ stepData: { 'national-id': { nationalId: MASKED } } });

    const partnerTask = `/api/partner/v1/tasks/${context.wxAssignedTaskUuid}`;
    const withoutReveal = [await call('GET', partnerTask, crmKey), await call('GET', partnerTask, auditorKey)];
    for (const answer of withoutReveal) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toMatchObject({ stepData: { 'national-id': { nationalId: MASKED } } });
    }
    const refused = await call('GET', `${partnerTask}?reveal=sensitive`, crmKey);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'reveal_not_allowed' } });
    const revealed = await call('GET', `${partnerTask}?reveal=sensitive`, auditorKey);
    expect(revealed.status).toBe(200);
    expect(JSON.parse(revealed.text)).toMatchObject({
      stepData: { 'national-id': { nationalId: NATIONAL_ID }, citizenship: { citizen: true } },
    });

    const reveals = await cli('partner-keys', ['reveals']);
    expect(reveals.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^\\S+Z  key auditor  task ${context.wxAssignedTaskUuid}  field national-id\\.nationalId$`)),
    ]);
    expect(reveals).not.toContain(NATIONAL_ID);

    const exported = await cli('tasks', ['export', '--worker', context.wxWorkerUuid]);
    expect(exported).toContain(MASKED);
    // An operator answering the worker's own request asks for it, and the reveal is recorded as theirs.
    const revealedExport = JSON.parse(
      await cli('tasks', ['export', '--worker', context.wxWorkerUuid, '--reveal-sensitive', '--by', 'dpo']),
    ) as { tasks: { stepData: unknown }[] };
    expect(revealedExport.tasks[0]!.stepData).toEqual({ citizenship: { citizen: true }, 'national-id': { nationalId: NATIONAL_ID } });
    expect((await cli('partner-keys', ['reveals'])).trim().split('\n')).toEqual([
      expect.stringMatching(/ {2}key auditor {2}/),
      expect.stringMatching(
        new RegExp(`^\\S+Z  key tasks export by dpo  task ${context.wxAssignedTaskUuid}  field national-id\\.nationalId$`),
      ),
    ]);

    const everywhere = {
      updates: (await updateBodies()).join('\n'),
      events: receiver.received.map((request) => request.body).join('\n'),
      view: view.text,
      partnerApi: withoutReveal.map((answer) => answer.text).join('\n') + refused.text,
      export: exported,
    };
    for (const [where, text] of Object.entries(everywhere))
      expect({ where, found: text.includes(NATIONAL_ID) }).toEqual({ where, found: false });

    // Killed, not stopped: the SQLite WAL is left as it is, unmerged.
    const log = running.output();
    await running.kill('SIGKILL');
    server = undefined;
    // A log at trace level (its debug lines are there: the server writes no trace line of its own here) that recorded
    // the steps' requests, and not the value.
    expect(log).toMatch(/"level":20,/);
    expect(log).toContain('/api/task/steps/national-id');
    expect(log).not.toContain(NATIONAL_ID);
    expect(log.toLowerCase()).not.toContain(NATIONAL_ID.toLowerCase());

    const stored = await database.storedText();
    if (engine === 'sqlite') expect(readdirSync(dirname(database.location))).toEqual(expect.arrayContaining(['store.db', 'store.db-wal']));
    expect(stored).not.toContain(NATIONAL_ID);
    expect(stored).not.toContain(NATIONAL_ID.toLowerCase());
    // What is stored in its place: a JWE naming its key, and the masked form.
    const sealed = /eyJ[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/.exec(stored)?.[0];
    expect(sealed).toBeDefined();
    // Padded to a block of 32 bytes before it was sealed: the ciphertext does not say how long the ID is.
    expect(Buffer.from(sealed!.split('.')[3]!, 'base64url')).toHaveLength(32);

    // An erasure removes it like any answer (docs/operations.md#export-and-erasure); the reveal record stays, naming no value.
    await cli('tasks', ['erase', '--worker', context.wxWorkerUuid, '--by', 'test']);
    expect(await database.storedText()).not.toContain(sealed);
    expect(await cli('partner-keys', ['reveals'])).toContain(`task ${context.wxAssignedTaskUuid}`);
  }, 120_000);
});

describe.each(testDatabases)('a sensitive value past TASK_DATA_RETENTION_DAYS, on $name', (engine) => {
  it('is removed with the answers of its finished task', async () => {
    const DAY = 24 * 60 * 60_000;
    const t = await openTaskApp({ engine });
    try {
      const context = newContext();
      const session = await t.app.inject({ method: 'POST', url: '/api/session', payload: { ...context, workflow: 'work-authorization' } });
      const headers = bearer((session.json() as { token: string }).token);
      const step = (id: string, data: unknown) =>
        t.app.inject({ method: 'POST', url: `/api/task/steps/${id}`, headers, payload: { data } });
      expect((await step('citizenship', { citizen: true })).statusCode).toBe(200);
      expect((await step('national-id', { nationalId: NATIONAL_ID })).statusCode).toBe(200);
      const stepData = async () =>
        (
          await t.database.store.db
            .selectFrom('tasks')
            .select('step_data')
            .where('assigned_task_key', '=', context.wxAssignedTaskUuid)
            .executeTakeFirstOrThrow()
        ).step_data;
      const sealed = (JSON.parse(await stepData()) as { 'national-id': { nationalId: { $sealed: string } } })['national-id'].nationalId
        .$sealed;
      expect(sealed).toMatch(/^eyJ/);
      // Finished (the partner's verification is not what this is about): retention erases a finished task's answers.
      await t.database.store.db.updateTable('tasks').set({ status: 'completed', current_step: null }).execute();
      await deliverEverything(t.database.store, t.clock.now());
      const retention = { outboxMs: 365 * DAY, taskDataMs: 30 * DAY };
      const run = await runRetention(
        t.database.store,
        { now: t.clock.now() + 31 * DAY, retention, uploadFiles: t.uploadFiles },
        { minPauseMs: 0, pausePerBusy: 0 },
      );
      expect(run.tasksErased).toBe(1);
      expect(await stepData()).toBe('{}');
      if (engine.name === 'sqlite') {
        const file = t.database.location;
        const bytes = [file, `${file}-wal`].filter((name) => existsSync(name)).map((name) => readFileSync(name));
        expect(Buffer.concat(bytes).toString('latin1')).not.toContain(sealed);
      }
    } finally {
      await t.close();
    }
  });
});
