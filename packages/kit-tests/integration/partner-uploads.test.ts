import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { uploadWithTus } from '../helpers/tus-uploads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newPartnerKey } from '@partner-task-kit/server/partner-api/partner-key-secret';
import { insertPartnerKey } from '@partner-task-kit/server/store/partner-keys.repository';
import { listReveals } from '@partner-task-kit/server/store/sensitive-reveals.repository';
import { findUpload } from '@partner-task-kit/server/store/uploads.repository';
import { s3UploadFiles } from '@partner-task-kit/server/uploads/s3-upload-files';
import { directoryUploadFiles, type UploadFiles } from '@partner-task-kit/server/uploads/upload-files';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import type { FileRule } from '@partner-task-kit/workflow/file-field';
import { startS3Server } from '../helpers/s3-server';
import { bearer, newContext, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';

/*
 * docs/connecting-your-backend.md#files: GET /api/partner/v1/tasks/{id}/uploads/{uploadId} over real HTTP, the files
 * sent with tus-js-client. The uploads name their own fields (fileRuleOf), so each test chooses the step a file is for,
 * and walks the task there (a file is taken for the step at hand only, docs/api.md#uploads); `national-id`'s
 * `nationalId` of work-authorization stands for a sensitive file field.
 */

const imageRule: FileRule = { types: ['image/jpeg', 'image/png'], maxBytes: 10 * 1024 * 1024 };
const documentFileRuleOf = (_workflowId: string, stepId: string, field: string) =>
  (stepId === 'photos' && (field === 'front' || field === 'back')) || (stepId === 'national-id' && field === 'nationalId')
    ? imageRule
    : undefined;

/** The stores the bytes may live in: a directory, and a bucket of a real S3-compatible server on loopback (s3rver). */
const stores = [
  {
    name: 'a directory',
    open: async () => {
      const directory = mkdtempSync(join(tmpdir(), 'ptk-partner-uploads-'));
      return { files: directoryUploadFiles(directory), remove: async () => rmSync(directory, { recursive: true, force: true }) };
    },
  },
  {
    name: 'an S3 bucket',
    open: async () => {
      const s3 = await startS3Server();
      return { files: s3UploadFiles(s3.uploadStore('partner/uploads/')), remove: () => s3.close() };
    },
  },
];

const cases = testDatabases.flatMap((engine) => stores.map((store) => ({ engine, store, name: `${engine.name}, ${store.name}` })));

describe.each(cases)('files through the partner API on $name', ({ engine, store }) => {
  let t: TaskApp;
  let files: UploadFiles;
  let removeStore: () => Promise<void>;
  let base: string;

  beforeEach(async () => {
    const opened = await store.open();
    files = opened.files;
    removeStore = opened.remove;
    t = await openTaskApp({ engine, uploadFiles: files, uploads: { fileRuleOf: documentFileRuleOf } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    // A download's last byte reaches the client before the server has read the end of its file, so its connection
    // may still be busy when the app closes (which would then wait for it): every answer here has been read.
    t.app.server.closeAllConnections();
    await t.close();
    await removeStore();
  });

  /** A work-authorization task, answered up to `at` on the citizen's path: the step its uploads are for. */
  async function session(context: TaskContext = newContext(), at: 'national-id' | 'photos' = 'photos') {
    const response = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...context, workflow: 'work-authorization' }),
    });
    expect(response.status).toBe(200);
    const token = ((await response.json()) as { token: string }).token;
    const answers = [
      ['citizenship', { citizen: true }],
      ['national-id', { nationalId: 'X1234567' }],
    ] as const;
    for (const [stepId, data] of answers) {
      if (stepId === at) break;
      const saved = await fetch(`${base}/api/task/steps/${stepId}`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ data }),
      });
      expect(saved.status).toBe(200);
    }
    return { context, token };
  }

  /** One upload with tus-js-client, to its end: the upload's id. */
  const upload = (file: Buffer, token: string, target = { stepId: 'photos', field: 'front' }) =>
    uploadWithTus(`${base}/api/task/uploads`, token, file, target);

  async function createKey(options: { companyUuid?: string | null; revealSensitive?: boolean } = {}) {
    const { key, prefix, keyHash } = newPartnerKey();
    const name = `key-${randomUUID().slice(0, 8)}`;
    const created = await insertPartnerKey(t.database.store.db, {
      ...{ name, prefix, keyHash, companyUuid: options.companyUuid ?? null },
      ...{ revealSensitive: options.revealSensitive ?? false, now: t.clock.now() },
    });
    if (!created.ok) throw new Error('key not created');
    return { key, name };
  }

  const download = (key: string, assignedTaskUuid: string, uploadId: string, method = 'GET') =>
    fetch(`${base}/api/partner/v1/tasks/${assignedTaskUuid}/uploads/${uploadId}`, { method, headers: bearer(key) });

  const photo = (color: string) =>
    sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
      .jpeg()
      .toBuffer();

  it('streams the cleaned JPEG with no EXIF or GPS left, its checked type, as an attachment never cached', async () => {
    const { context, token } = await session();
    const sent = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a6' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'PhoneMaker', Model: 'Phone 9' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100' },
      })
      .toBuffer();
    const before = await sharp(sent).metadata();
    expect(before.exif?.toString('latin1')).toContain('PhoneMaker');
    expect(gpsEntries(before.exif)).toBe(4);

    const id = await upload(sent, token);
    const { key } = await createKey({ companyUuid: context.wxCompanyUuid });
    const response = await download(key, context.wxAssignedTaskUuid, id);
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    const stored = await findUpload(t.database.store.db, id);
    const sha256 = createHash('sha256').update(body).digest('hex');
    expect(stored).toMatchObject({ state: 'completed', contentType: 'image/jpeg', bytes: body.length, sha256 });
    expect(
      Object.fromEntries(
        ['content-type', 'content-length', 'content-disposition', 'cache-control'].map((name) => [name, response.headers.get(name)]),
      ),
    ).toEqual({
      'content-type': 'image/jpeg',
      'content-length': String(body.length),
      'content-disposition': `attachment; filename="${id}.jpg"`,
      'cache-control': 'no-store',
    });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('repr-digest')).toBe(`sha-256=:${createHash('sha256').update(body).digest('base64')}:`);

    const after = await sharp(body).metadata();
    expect([after.format, after.width, after.height]).toEqual(['jpeg', 64, 48]);
    expect(after.exif).toBeUndefined();
    expect(gpsEntries(after.exif)).toBe(0);
    expect(after.xmp).toBeUndefined();
    expect(body.toString('latin1')).not.toContain('PhoneMaker');
    expect(body.toString('latin1')).not.toContain('Exif');

    // HEAD: the same headers, no bytes.
    const head = await download(key, context.wxAssignedTaskUuid, id, 'HEAD');
    expect([head.status, head.headers.get('content-length'), head.headers.get('content-type')]).toEqual([
      200,
      String(body.length),
      'image/jpeg',
    ]);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers 404, as for an upload that never was, to another task’s, an unfinished one, one whose bytes are gone, and no id', async () => {
    const company = randomUUID();
    const own = await session({ ...newContext(), wxCompanyUuid: company });
    const sibling = await session({ ...newContext(), wxCompanyUuid: company });
    const kept = await upload(await photo('#a33'), own.token);
    const removed = await upload(await photo('#33a'), own.token, { stepId: 'photos', field: 'back' });
    expect(await files.remove(removed)).toBe(true);
    const siblings = await upload(await photo('#3a3'), sibling.token);
    // Created, never sent: tus's creation alone.
    const created = await fetch(`${base}/api/task/uploads`, {
      method: 'POST',
      headers: {
        ...bearer(own.token),
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': `stepId ${Buffer.from('photos').toString('base64')},field ${Buffer.from('front').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const unfinished = created.headers.get('location')!.split('/').pop()!;

    const { key } = await createKey({ companyUuid: company });
    const task = own.context.wxAssignedTaskUuid;
    const unknown = await download(key, task, randomBytes(16).toString('base64url'));
    expect(unknown.status).toBe(404);
    const unknownBody = await unknown.text();
    expect(JSON.parse(unknownBody)).toEqual({ error: { code: 'not_found', message: expect.any(String), field: 'uploadId' } });
    for (const uploadId of [siblings, unfinished, removed, 'not-an-upload-id', encodeURIComponent('../../etc/passwd')]) {
      const answer = await download(key, task, uploadId);
      expect([uploadId, answer.status, await answer.text()]).toEqual([uploadId, 404, unknownBody]);
    }
    // The sibling's own task does give it, and this task its own.
    expect((await download(key, sibling.context.wxAssignedTaskUuid, siblings)).status).toBe(200);
    expect((await download(key, task, kept)).status).toBe(200);
  });

  it("answers another company's task exactly as an unknown one, with or without the upload's id, and needs a key", async () => {
    const own = await session();
    const id = await upload(await photo('#a33'), own.token);
    const task = own.context.wxAssignedTaskUuid;
    const { key: otherCompanyKey } = await createKey({ companyUuid: randomUUID() });
    const foreign = await download(otherCompanyKey, task, id);
    const unknownTask = await download(otherCompanyKey, randomUUID(), id);
    expect(foreign.status).toBe(404);
    const foreignBody = await foreign.text();
    expect(JSON.parse(foreignBody)).toMatchObject({ error: { code: 'task_not_found' } });
    expect(foreignBody).toBe(await unknownTask.text());

    const anonymous = await fetch(`${base}/api/partner/v1/tasks/${task}/uploads/${id}`);
    expect([anonymous.status, anonymous.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    const revokedLike = await download('ptk_not-a-key-at-all', task, id);
    expect(revokedLike.status).toBe(401);

    // The task's company's key, letter case aside, and a key of every company (no --company) get it.
    const { key: companyKey } = await createKey({ companyUuid: own.context.wxCompanyUuid });
    expect((await download(companyKey, task.toUpperCase(), id)).status).toBe(200);
    const { key: anyCompanyKey } = await createKey();
    expect((await download(anyCompanyKey, task, id)).status).toBe(200);
  });

  it('gives a file of a sensitive field only to a key that may reveal, and records the reveal first', async () => {
    const { context, token } = await session(newContext(), 'national-id');
    const id = await upload(await photo('#555'), token, { stepId: 'national-id', field: 'nationalId' });
    const crm = await createKey();
    const auditor = await createKey({ revealSensitive: true });
    const refused = await download(crm.key, context.wxAssignedTaskUuid, id);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'reveal_not_allowed' } });
    expect(await listReveals(t.database.store.db)).toEqual([]);

    const revealed = await download(auditor.key, context.wxAssignedTaskUuid, id);
    expect([revealed.status, revealed.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect((await revealed.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect(await listReveals(t.database.store.db)).toEqual([
      { keyName: auditor.name, assignedTaskUuid: context.wxAssignedTaskUuid, field: 'national-id.nationalId', revealedAt: t.clock.now() },
    ]);
  });
});

/** How many entries the EXIF's GPS IFD holds (0 without one): its TIFF read by hand, as no EXIF reader is installed. */
function gpsEntries(exif: Buffer | undefined): number {
  if (exif === undefined) return 0;
  const tiff = exif.subarray(exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0);
  const little = tiff.subarray(0, 2).toString('latin1') === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  for (let entry = 0; entry < u16(ifd0); entry += 1) {
    const at = ifd0 + 2 + entry * 12;
    // Tag 0x8825: the GPS IFD's offset.
    if (u16(at) === 0x8825) return u16(u32(at + 8));
  }
  return 0;
}
