import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { uploadWithTus } from '../helpers/tus-uploads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newPartnerKey } from '@partner-task-kit/server/partner-api/partner-key-secret';
import { runRetention } from '@partner-task-kit/server/retention/retention-job';
import { insertPartnerKey } from '@partner-task-kit/server/store/partner-keys.repository';
import { directoryUploadFiles, type UploadFiles } from '@partner-task-kit/server/uploads/upload-files';
import { control } from '../helpers/emulator-control';
import { testDatabase, type BlankTestDatabase } from '../helpers/test-databases';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { readUntil } from '../helpers/read-until';

/*
 * docs/connecting-your-backend.md#files end to end, in emulator mode: work-authorization's `photos` step saved with
 * two uploads sent by tus-js-client, then what the partner's backend is given of them. The signed event (received and
 * verified by the built-in receiver), the partner API's task and the answer of the step it completes describe each
 * file as {id, contentType, bytes, sha256}, while the page keeps the ids; the preview's Partner backend panel lists
 * the files and shows the cleaned bytes through the partner API; once retention erases the answers nothing describes
 * them any more.
 */

const DAY = 24 * 60 * 60_000;

interface FileAnswer {
  id: string;
  contentType: string;
  bytes: number;
  sha256: string;
}

interface PanelAnswer {
  events: { type: string; verified: boolean; body: { data: { stepId?: string; stepData?: unknown } } }[];
  files: (FileAnswer & { stepId: string; field: string })[];
}

describe.each(['sqlite', 'postgres'] as const)('files given to the partner, on %s', (engine) => {
  let directory: string;
  let database: BlankTestDatabase;
  let files: UploadFiles;
  let server: TestServer;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-file-answers-'));
    database = await testDatabase(engine).create();
    files = directoryUploadFiles(join(directory, 'uploads'));
    server = await startTestServer({ LOG_LEVEL: 'silent' }, { database, page: true, partnerRelay: { pollMs: 50 }, uploadFiles: files });
  });

  afterEach(async () => {
    await server.close();
    await database.cleanup();
    rmSync(directory, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  const upload = (file: Buffer, token: string, field: string) =>
    uploadWithTus(`${server.url}/api/task/uploads`, token, file, { stepId: 'photos', field });

  const panel = async (assignedTaskUuid: string) =>
    (await call('GET', `/emulator/control/partner-backend?assignedTaskUuid=${assignedTaskUuid}`)) as unknown as PanelAnswer;

  async function partnerKey() {
    const created = newPartnerKey();
    const inserted = await insertPartnerKey(server.store.db, {
      ...{ name: `crm-${randomUUID().slice(0, 8)}`, prefix: created.prefix, keyHash: created.keyHash },
      ...{ companyUuid: null, now: Date.now() },
    });
    if (!inserted.ok) throw new Error('key not created');
    return created.key;
  }

  /** A citizen of work-authorization up to the photos step, saved with a JPEG carrying GPS EXIF and a PNG. */
  async function photosSaved() {
    const context = {
      wxWorkerUuid: randomUUID(),
      wxAssignedTaskUuid: randomUUID(),
      wxTaskFlowUuid: randomUUID(),
      wxCompanyUuid: randomUUID(),
    };
    await control(`${server.url}/emulator`).assign(context.wxAssignedTaskUuid, { companyUuid: context.wxCompanyUuid });
    const { token } = (await call('POST', '/api/session', undefined, { ...context, workflow: 'work-authorization' })) as { token: string };
    await call('POST', '/api/task/steps/citizenship', token, { data: { citizen: true } });
    await call('POST', '/api/task/steps/national-id', token, { data: { nationalId: 'ZQ73159048' } });
    const front = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#36c' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'PhoneMaker' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100' } })
      .toBuffer();
    const back = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#c63' } })
      .png()
      .toBuffer();
    const ids = { front: await upload(front, token, 'front'), back: await upload(back, token, 'back') };
    await call('POST', '/api/task/steps/photos', token, { data: ids });
    return { context, token, ids };
  }

  it("describes each photo in the signed event, the partner API and its step's answer; the page keeps the ids", async () => {
    const { context, token, ids } = await photosSaved();
    const task = context.wxAssignedTaskUuid;

    const view = (await call('GET', '/api/task', token)) as { stepData: Record<string, unknown> };
    expect(view.stepData.photos).toEqual(ids);

    const key = await partnerKey();
    const partnerTask = (await call('GET', `/api/partner/v1/tasks/${task}`, key)) as { stepData: { photos: Record<string, FileAnswer> } };
    const described = partnerTask.stepData.photos;
    expect(described).toEqual({
      front: { id: ids.front, contentType: 'image/jpeg', bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      back: { id: ids.back, contentType: 'image/png', bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    // The description is of the bytes the partner downloads: the cleaned ones.
    for (const file of Object.values(described)) {
      const response = await fetch(`${server.url}/api/partner/v1/tasks/${task}/uploads/${file.id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = Buffer.from(await response.arrayBuffer());
      expect([response.status, body.length, createHash('sha256').update(body).digest('hex')]).toEqual([200, file.bytes, file.sha256]);
    }

    const received = await readUntil(
      () => panel(task),
      (answer) => answer.events.some((event) => event.body.data.stepId === 'photos'),
    );
    const event = received.events.find((candidate) => candidate.body.data.stepId === 'photos')!;
    expect([event.type, event.verified]).toEqual(['task.step_saved', true]);
    expect(event.body.data.stepData).toEqual(described);
    // The sensitive value of the step before stays masked in its own event.
    const nationalId = received.events.find((candidate) => candidate.body.data.stepId === 'national-id')!;
    expect(nationalId.body.data.stepData).toEqual({ nationalId: '••••48' });

    // On to the step the partner completes: its answer, the task view, describes the photos too.
    await call('POST', '/api/task/steps/postcode', token, { data: { postcode: '28001' } });
    const { offer } = (await call('GET', '/api/task/steps/appointment/offer', token)) as { offer: { slots: { id: string }[] } };
    await call('POST', '/api/task/steps/appointment', token, { data: { slotId: offer.slots[0]!.id } });
    const resolved = (await call('POST', `/emulator/control/partner-backend/tasks/${task}/steps/verification`, undefined, {
      data: { result: 'passed' },
    })) as { task: { status: string; stepData: { photos: unknown } } };
    expect(resolved.task.status).toBe('completed');
    expect(resolved.task.stepData.photos).toEqual(described);
  });

  it('lists the files in the preview’s panel and shows the cleaned image through the partner API', async () => {
    const { context, ids } = await photosSaved();
    const task = context.wxAssignedTaskUuid;
    const { files: listed } = await panel(task);
    expect(listed.map((file) => [file.stepId, file.field, file.id, file.contentType])).toEqual([
      ['photos', 'front', ids.front, 'image/jpeg'],
      ['photos', 'back', ids.back, 'image/png'],
    ]);
    const image = await fetch(`${server.url}/emulator/control/partner-backend/tasks/${task}/uploads/${ids.front}`);
    const bytes = Buffer.from(await image.arrayBuffer());
    expect([image.status, image.headers.get('content-type'), image.headers.get('x-content-type-options')]).toEqual([
      200,
      'image/jpeg',
      'nosniff',
    ]);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(listed[0]!.sha256);
    const metadata = await sharp(bytes).metadata();
    expect([metadata.format, metadata.exif]).toEqual(['jpeg', undefined]);
    expect(bytes.toString('latin1')).not.toContain('PhoneMaker');

    const unknown = await fetch(
      `${server.url}/emulator/control/partner-backend/tasks/${task}/uploads/${randomBytes(16).toString('base64url')}`,
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    // Another task has none of these.
    expect((await panel(randomUUID())).files).toEqual([]);
  });

  it('describes nothing once retention has erased the answers: the task, its events and the files', async () => {
    const { context, token, ids } = await photosSaved();
    const task = context.wxAssignedTaskUuid;
    await call('POST', '/api/task/steps/postcode', token, { data: { postcode: '28001' } });
    const { offer } = (await call('GET', '/api/task/steps/appointment/offer', token)) as { offer: { slots: { id: string }[] } };
    await call('POST', '/api/task/steps/appointment', token, { data: { slotId: offer.slots[0]!.id } });
    await call('POST', `/emulator/control/partner-backend/tasks/${task}/steps/verification`, undefined, { data: { result: 'passed' } });
    // Everything delivered: retention leaves a task with an update or event still to send alone.
    await readUntil(
      async () => server.store.db.selectFrom('outbox').select('id').where('state', '=', 'pending').execute(),
      (pending) => pending.length === 0,
    );
    const retention = { outboxMs: 365 * DAY, taskDataMs: 30 * DAY };
    const outcome = await runRetention(
      server.store,
      { now: Date.now() + 31 * DAY, retention, uploadFiles: files },
      { minPauseMs: 0, pausePerBusy: 0 },
    );
    expect(outcome.tasksErased).toBe(1);

    const key = await partnerKey();
    const partnerTask = await call('GET', `/api/partner/v1/tasks/${task}`, key);
    expect(partnerTask.stepData).toEqual({});
    const events = await server.store.db.selectFrom('outbox').select('payload').where('lane', '=', 'partner').execute();
    expect(events.length).toBeGreaterThan(0);
    for (const { payload } of events) expect(payload).not.toMatch(/sha256|stepData/);
    for (const id of [ids.front, ids.back]) {
      const download = await fetch(`${server.url}/api/partner/v1/tasks/${task}/uploads/${id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(download.status).toBe(404);
    }
  });
});
