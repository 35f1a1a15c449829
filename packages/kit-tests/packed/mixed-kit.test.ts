import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_PREFIX } from '@partner-task-kit/server/config';
import { control } from '../helpers/emulator-control';
import { runIn } from '../helpers/project-copy';
import { launchServer, type ServerProcess } from '../helpers/server-process';
import { installKit, kitVersion, minutes, nativeSqlite, packKit, repoRoot, scaffoldApp } from './packed-kit';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

/**
 * The partner's mixed trees of docs/upgrading.md#one-version-of-the-kit, built from the packed packages in an app
 * outside this repository: (a) `server` one patch ahead of the others, (b) a second copy of `workflow` nested under
 * `server`. On each the server refuses to start, `doctor` fails and `npm run build` stops, naming both versions and
 * folders; with KIT_VERSION_CHECK=off the server runs, and a sensitive answer given through the task API is still
 * sealed in the database and masked in the platform's updates and the partner's events.
 */
const NATIONAL_ID = 'ZQ73159048';
const MASKED = '••••48';

let work: string;
let appDir: string;
const kitModules = () => join(appDir, 'node_modules/@partner-task-kit');

beforeAll(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'ptk-mixed-')));
  const tarballs = await packKit(repoRoot, join(work, 'packs'));
  appDir = join(work, 'app');
  await scaffoldApp(appDir, tarballs, kitVersion(repoRoot), ['--workflow', 'work-authorization']);
  await installKit(appDir, tarballs, await nativeSqlite(join(work, 'prebuilds')));
}, minutes(12));

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The app's server entry as its package.json scripts run it (`npm run migrate`). */
const serverEntry = ['--import', '@partner-task-kit/vite-plugin/register', 'server/main.ts'];

/** What the mix is refused with, everywhere: the lines that name each copy in question, and the fix. */
function expectNamed(output: string, copies: readonly RegExp[]): void {
  for (const copy of copies) expect(output).toMatch(copy);
  expect(output).toMatch(/npx partner-task-kit upgrade \d+\.\d+\.\d+/);
}

/**
 * The refusals on the tree as it is now, then a task of work-authorization through the server started with the
 * bypass: its national ID sealed in tasks.step_data, masked in the platform's updates and in the partner's event.
 */
async function refusedThenSealedWithBypass(copies: readonly RegExp[]): Promise<void> {
  const database = join(work, `${randomUUID()}.db`);
  const refused = await runIn(appDir, process.execPath, serverEntry, minutes(1), { DATABASE_URL: database, PORT: '0' });
  expect(refused.code, refused.output).toBe(1);
  expect(refused.output).toContain('The server does not start.');
  expectNamed(refused.output, copies);

  const doctor = await runIn(appDir, process.execPath, [...serverEntry, 'doctor'], minutes(1), { DATABASE_URL: database });
  expect(doctor.code, doctor.output).toBe(1);
  expect(doctor.output).toMatch(/^FAIL kit versions: /m);
  expectNamed(doctor.output, copies);

  const build = await runIn(appDir, 'npm', ['run', 'build'], minutes(3));
  expect(build.code, build.output).not.toBe(0);
  expect(build.output).toContain('The page is not built.');
  expectNamed(build.output, copies);

  const receiver = await startWebhookReceiver();
  let server: ServerProcess | undefined;
  try {
    const env = {
      DATABASE_URL: database,
      KIT_VERSION_CHECK: 'off',
      PARTNER_WEBHOOK_URL: receiver.url,
      PARTNER_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
    };
    server = await (await launchServer(env, [process.execPath, ...serverEntry], appDir)).healthy(minutes(1));
    expect(server.output()).toContain('WARNING: KIT_VERSION_CHECK=off is set');
    expectNamed(server.output(), copies);

    const context = {
      wxWorkerUuid: randomUUID(),
      wxAssignedTaskUuid: randomUUID(),
      wxTaskFlowUuid: randomUUID(),
      wxCompanyUuid: randomUUID(),
    };
    // The emulator of emulator mode, mounted in the server (docs/decisions/006-emulator-mode-is-the-default.md).
    const platform = control(`${server.url}${EMULATOR_PREFIX}`);
    await platform.assign(context.wxAssignedTaskUuid, { companyUuid: context.wxCompanyUuid });
    const opened = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...context, workflow: 'work-authorization' }),
    });
    expect(opened.status).toBe(200);
    const { token } = (await opened.json()) as { token: string };
    const step = async (id: string, data: unknown) => {
      const response = await fetch(`${server!.url}/api/task/steps/${id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data }),
      });
      return { status: response.status, text: await response.text() };
    };
    expect((await step('citizenship', { citizen: true })).status).toBe(200);
    const saved = await step('national-id', { nationalId: NATIONAL_ID.toLowerCase() });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.text).toContain(MASKED);
    expect(saved.text).not.toContain(NATIONAL_ID);

    // The partner's event of the step, masked; the platform's updates and the outbox never hold the clear value.
    await expect
      .poll(() => receiver.received.map((request) => request.body).some((body) => body.includes('"stepId":"national-id"')), {
        timeout: 30_000,
      })
      .toBe(true);
    const event = receiver.received.map((request) => request.body).find((body) => body.includes('"stepId":"national-id"'))!;
    expect(JSON.parse(event)).toMatchObject({ type: 'task.step_saved', data: { stepData: { nationalId: MASKED } } });
    const updates = (await platform.requests('partnerTask')).map((request) => JSON.stringify(request.body));
    expect(updates.length).toBeGreaterThan(0);
    for (const body of [...updates, ...receiver.received.map((request) => request.body)]) expect(body).not.toContain(NATIONAL_ID);

    const db = new Database(database, { readonly: true });
    try {
      const task = db.prepare('select step_data from tasks where assigned_task_uuid = ?').get(context.wxAssignedTaskUuid) as {
        step_data: string;
      };
      const stored = JSON.parse(task.step_data) as Record<string, Record<string, unknown>>;
      expect(stored['national-id']!.nationalId).toEqual({ $sealed: expect.any(String), masked: MASKED });
      expect(task.step_data).not.toContain(NATIONAL_ID);
      const outbox = db.prepare('select payload from outbox').all() as { payload: string }[];
      for (const { payload } of outbox) expect(payload).not.toContain(NATIONAL_ID);
    } finally {
      db.close();
    }
  } finally {
    await server?.kill('SIGTERM');
    await receiver.close();
  }
}

describe('an app on a mix of the packed kit', () => {
  const version = () => kitVersion(repoRoot);
  const ahead = () => version().replace(/\d+$/, (patch) => String(Number(patch) + 1));

  afterEach(() => {
    // Each case starts from the app as npm installed it.
    const server = join(kitModules(), 'server/package.json');
    const manifest = JSON.parse(readFileSync(server, 'utf8')) as { version: string };
    writeFileSync(server, `${JSON.stringify({ ...manifest, version: version() }, null, 2)}\n`);
    rmSync(join(kitModules(), 'server/node_modules/@partner-task-kit'), { recursive: true, force: true });
  });

  it(
    'with server one patch ahead of workflow and page: refused, then sealed and masked with KIT_VERSION_CHECK=off',
    async () => {
      // What `npm install @partner-task-kit/server@<next patch> --legacy-peer-deps` leaves: its package.json says so.
      const server = join(kitModules(), 'server/package.json');
      const manifest = JSON.parse(readFileSync(server, 'utf8')) as { version: string };
      writeFileSync(server, `${JSON.stringify({ ...manifest, version: ahead() }, null, 2)}\n`);
      await refusedThenSealedWithBypass([
        new RegExp(`@partner-task-kit/server +${ahead().replaceAll('.', '\\.')} +node_modules/@partner-task-kit/server$`, 'm'),
        new RegExp(`@partner-task-kit/workflow +${version().replaceAll('.', '\\.')} +node_modules/@partner-task-kit/workflow$`, 'm'),
        new RegExp(`@partner-task-kit/page +${version().replaceAll('.', '\\.')} +node_modules/@partner-task-kit/page$`, 'm'),
      ]);
    },
    minutes(6),
  );

  it(
    'with a second copy of workflow nested under server: refused, then sealed and masked with KIT_VERSION_CHECK=off',
    async () => {
      cpSync(join(kitModules(), 'workflow'), join(kitModules(), 'server/node_modules/@partner-task-kit/workflow'), { recursive: true });
      const at = version().replaceAll('.', '\\.');
      await refusedThenSealedWithBypass([
        new RegExp(`@partner-task-kit/workflow +${at} +node_modules/@partner-task-kit/workflow +\\(one of 2 copies\\)$`, 'm'),
        new RegExp(
          `@partner-task-kit/workflow +${at} +node_modules/@partner-task-kit/server/node_modules/@partner-task-kit/workflow +\\(one of 2 copies, imported by @partner-task-kit/server\\)$`,
          'm',
        ),
      ]);
    },
    minutes(6),
  );
});
