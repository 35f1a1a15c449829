import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import * as tus from 'tus-js-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findUpload } from '@partner-task-kit/server/store/uploads.repository';
import { s3UploadFiles } from '@partner-task-kit/server/uploads/s3-upload-files';
import { directoryUploadFiles, type UploadFiles } from '@partner-task-kit/server/uploads/upload-files';
import { startS3Server } from '../helpers/s3-server';
import { bearer, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { TUS_HEADERS, tusMetadata, welcomePhotoRuleOf } from '../helpers/tus-uploads';

/**
 * The field every upload here is for: a rule of the test's own, so these tests hold whatever the workflows' fields are,
 * on the first step of the default workflow, where a new task is (a file is taken for the step at hand only).
 */
const metadata = { filename: 'photo.jpg', filetype: 'image/jpeg', stepId: 'welcome', field: 'photo' };

/** Where the bytes go, and every name kept there: what someone with the disk or the bucket would find. */
interface StoreUnderTest {
  files: UploadFiles;
  storedNames(): Promise<string[]>;
  close(): Promise<void>;
}
const stores = [
  {
    name: 'directory',
    async open(): Promise<StoreUnderTest> {
      const directory = mkdtempSync(join(tmpdir(), 'ptk-uploads-'));
      return {
        files: directoryUploadFiles(directory),
        storedNames: async () => readdirSync(directory),
        close: async () => rmSync(directory, { recursive: true, force: true }),
      };
    },
  },
  {
    // A real S3-compatible server on loopback (packages/kit-tests/helpers/s3-server.ts), the keys under a prefix.
    name: 's3',
    async open(): Promise<StoreUnderTest> {
      const s3 = await startS3Server();
      return { files: s3UploadFiles(s3.uploadStore('uploads/')), storedNames: () => s3.listKeys(), close: () => s3.close() };
    },
  },
];
const storesAndEngines = stores.flatMap((store) =>
  testDatabases.map((engine) => ({ name: `the ${store.name} store on ${engine.name}`, store, engine })),
);

describe.each(storesAndEngines)('tus uploads to $name', ({ store, engine }) => {
  let t: TaskApp;
  let kept: StoreUnderTest;
  let endpoint: string;

  beforeEach(async () => {
    kept = await store.open();
    t = await openTaskApp({ engine, uploadFiles: kept.files, uploads: { fileRuleOf: welcomePhotoRuleOf, maxFilesPerTask: 3 } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    endpoint = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/task/uploads`;
  });
  afterEach(async () => {
    await t.close();
    await kept.close();
  });

  /** The bytes the store keeps for an upload. */
  async function storedBytes(id: string): Promise<Buffer> {
    const stream = await kept.files.open(id);
    if (!stream) throw new Error(`nothing stored for ${id}`);
    return buffer(stream);
  }

  /** Runs one tus upload to its end: the upload's id, or the refusal's status and body. */
  function upload(
    file: Buffer,
    token: string,
    options: Partial<tus.UploadOptions> = {},
  ): Promise<{ ok: true; id: string } | { ok: false; status: number | undefined; body: string | undefined }> {
    return new Promise((resolve) => {
      const running = new tus.Upload(file, {
        endpoint,
        headers: bearer(token),
        metadata,
        retryDelays: [],
        storeFingerprintForResuming: false,
        ...options,
        onSuccess: () => resolve({ ok: true, id: running.url!.split('/').pop()! }),
        onError: (error) => {
          const response = (error as tus.DetailedError).originalResponse;
          resolve({ ok: false, status: response?.getStatus(), body: response?.getBody() });
        },
      });
      running.start();
    });
  }

  it('resumes an upload interrupted half way from the server offset, sending again at most one chunk', async () => {
    const session = await openSession(t.app);
    const file = await sharp({
      create: { width: 900, height: 900, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .jpeg({ quality: 100 })
      .toBuffer();
    const chunkSize = 64 * 1024;
    expect(file.length).toBeGreaterThan(6 * chunkSize);

    const firstPatches: number[] = [];
    const url = await new Promise<string>((resolve, reject) => {
      const first: tus.Upload = new tus.Upload(file, {
        endpoint,
        headers: bearer(session.token),
        metadata,
        chunkSize,
        retryDelays: [],
        storeFingerprintForResuming: false,
        onBeforeRequest: (request) => {
          if (request.getMethod() === 'PATCH') firstPatches.push(Number(request.getHeader('Upload-Offset')));
        },
        // Cut in the middle of a chunk, as a phone leaving coverage would.
        onProgress: (sent) => {
          if (sent >= file.length / 2 && first.url) void first.abort().then(() => resolve(first.url!));
        },
        onSuccess: () => reject(new Error('the upload was not interrupted')),
        onError: reject,
      });
      first.start();
    });
    const head = await fetch(url.startsWith('http') ? url : new URL(url, endpoint), {
      method: 'HEAD',
      headers: { ...bearer(session.token), ...TUS_HEADERS },
    });
    expect(head.status).toBe(200);
    const serverOffset = Number(head.headers.get('upload-offset'));
    const acceptedBefore = Math.max(...firstPatches);
    expect(serverOffset).toBeGreaterThanOrEqual(acceptedBefore);
    expect(serverOffset).toBeLessThan(file.length);

    const resumedPatches: number[] = [];
    const resumed = await upload(file, session.token, {
      uploadUrl: url,
      chunkSize,
      onBeforeRequest: (request) => {
        if (request.getMethod() === 'POST') throw new Error('a resumed upload must not create a new one');
        if (request.getMethod() === 'PATCH') resumedPatches.push(Number(request.getHeader('Upload-Offset')));
      },
    });
    expect(resumed.ok).toBe(true);
    // It goes on from where the server is, not from the start: what was sent again is less than one chunk.
    expect(resumedPatches[0]).toBe(serverOffset);
    expect(file.length / 2 - resumedPatches[0]!).toBeLessThanOrEqual(chunkSize);
    const record = await findUpload(t.database.store.db, url.split('/').pop()!);
    expect(record).toMatchObject({ state: 'completed', contentType: 'image/jpeg' });
  });

  it('keeps a JPEG upright and without its EXIF, GPS position included', async () => {
    const session = await openSession(t.app);
    const photo = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#c33' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'PhoneMaker', Model: 'Phone 9' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const sent = await sharp(photo).metadata();
    expect(sent.exif?.toString('latin1')).toContain('PhoneMaker');
    expect(sent.orientation).toBe(6);

    const result = await upload(photo, session.token);
    if (!result.ok) throw new Error(`refused: ${result.status} ${result.body}`);
    const stored = await storedBytes(result.id);
    const kept = await sharp(stored).metadata();
    expect(kept.format).toBe('jpeg');
    expect(kept.exif).toBeUndefined();
    expect(kept.xmp).toBeUndefined();
    expect(kept.orientation).toBeUndefined();
    // Orientation 6 is a quarter turn: applied, the 40x20 picture is 20 wide and 40 high.
    expect([kept.width, kept.height]).toEqual([20, 40]);
    expect(stored.toString('latin1')).not.toContain('PhoneMaker');
    expect(stored.length).not.toBe(photo.length);

    // Complete as sent, though the file kept is another size; it no longer changes.
    const url = new URL(`${endpoint}/${result.id}`);
    const tusHeaders = { ...bearer(session.token), ...TUS_HEADERS };
    const head = await fetch(url, { method: 'HEAD', headers: tusHeaders });
    expect([head.status, head.headers.get('upload-offset'), head.headers.get('upload-length')]).toEqual([
      200,
      String(photo.length),
      String(photo.length),
    ]);
    const patch = await fetch(url, {
      method: 'PATCH',
      headers: { ...tusHeaders, 'upload-offset': String(photo.length), 'content-type': 'application/offset+octet-stream' },
      body: Buffer.alloc(10),
    });
    expect(patch.status).toBe(409);
    expect(await patch.json()).toMatchObject({ error: { code: 'upload_complete' } });
    expect((await fetch(url, { method: 'DELETE', headers: tusHeaders })).status).toBe(409);
    expect(await storedBytes(result.id)).toEqual(stored);
    expect(await findUpload(t.database.store.db, result.id)).toMatchObject({
      state: 'completed',
      contentType: 'image/jpeg',
      bytes: stored.length,
      sha256: createHash('sha256').update(stored).digest('hex'),
    });
  });

  it('gives the worker their own completed upload back as stored, and no one else any', async () => {
    const owner = await openSession(t.app);
    const stranger = await openSession(t.app);
    const photo = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#36c' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'PhoneMaker' } })
      .toBuffer();
    const result = await upload(photo, owner.token);
    if (!result.ok) throw new Error(`refused: ${result.status} ${result.body}`);
    const url = `${endpoint}/${result.id}`;

    const own = await fetch(url, { headers: bearer(owner.token) });
    expect(own.status).toBe(200);
    expect(
      Object.fromEntries(['content-type', 'x-content-type-options', 'cache-control'].map((name) => [name, own.headers.get(name)])),
    ).toEqual({
      'content-type': 'image/jpeg',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
    // The cleaned file, as kept: not the bytes sent, which carried the phone's EXIF.
    const body = Buffer.from(await own.arrayBuffer());
    expect(body).toEqual(await storedBytes(result.id));
    expect(body.toString('latin1')).not.toContain('PhoneMaker');

    const unfinished = await fetch(endpoint, {
      method: 'POST',
      headers: { ...bearer(owner.token), ...TUS_HEADERS, 'upload-length': '100', 'upload-metadata': tusMetadata(metadata) },
    });
    const refusals = [
      await fetch(url, { headers: bearer(stranger.token) }),
      await fetch(new URL(unfinished.headers.get('location')!, endpoint), { headers: bearer(owner.token) }),
      await fetch(`${endpoint}/not-an-upload`, { headers: bearer(owner.token) }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(404);
      expect(await refusal.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    expect((await fetch(url)).status).toBe(401);

    // A new attempt starts with none of the last one's files.
    const headers = { ...bearer(owner.token), 'content-type': 'application/json' };
    expect((await fetch(`${endpoint.replace('/uploads', '')}/start`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
    expect((await fetch(`${endpoint.replace('/uploads', '')}/restart`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
    expect((await fetch(url, { headers: bearer(owner.token) })).status).toBe(404);
  });

  it('refuses a text file sent as image/jpeg, and keeps nothing of it', async () => {
    const session = await openSession(t.app);
    const result = await upload(Buffer.from('not a photo at all, just words\n'.repeat(20)), session.token);
    expect(result).toMatchObject({ ok: false, status: 415 });
    expect(JSON.parse((result as { body: string }).body)).toMatchObject({ error: { code: 'unsupported_file_type' } });
    expect(await kept.storedNames()).toEqual([]);
    const rows = await t.database.store.db.selectFrom('uploads').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('answers 413 to an 11 MB Upload-Length before a byte is stored', async () => {
    const session = await openSession(t.app);
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...bearer(session.token),
        ...TUS_HEADERS,
        'upload-length': String(11 * 1024 * 1024),
        'upload-metadata': tusMetadata(metadata),
      },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'upload_too_large', field: 'Upload-Length' } });
    expect(await kept.storedNames()).toEqual([]);
  });

  it('refuses an upload for a field the step does not have, and one past the task’s quota', async () => {
    const session = await openSession(t.app);
    const post = (meta: string) =>
      fetch(endpoint, {
        method: 'POST',
        headers: { ...bearer(session.token), ...TUS_HEADERS, 'upload-length': '100', 'upload-metadata': meta },
      });
    const unknown = await post(tusMetadata({ ...metadata, field: 'selfie' }));
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: 'invalid_upload_metadata' } });
    for (let i = 0; i < 3; i += 1) expect((await post(tusMetadata(metadata))).status).toBe(201);
    const fourth = await post(tusMetadata(metadata));
    expect(fourth.status).toBe(413);
    expect(await fourth.json()).toMatchObject({ error: { code: 'upload_quota_exceeded' } });

    // An unfinished upload terminated frees its place.
    const rows = await t.database.store.db.selectFrom('uploads').select('id').execute();
    const terminated = await fetch(`${endpoint}/${rows[0]!.id}`, {
      method: 'DELETE',
      headers: { ...bearer(session.token), ...TUS_HEADERS },
    });
    expect(terminated.status).toBe(204);
    expect(await findUpload(t.database.store.db, rows[0]!.id)).toBeUndefined();
    expect((await post(tusMetadata(metadata))).status).toBe(201);
  });

  it('needs the session token, and shows an upload only to its own task', async () => {
    const owner = await openSession(t.app);
    const stranger = await openSession(t.app);
    const created = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...bearer(owner.token),
        origin: 'https://elsewhere.example',
        ...TUS_HEADERS,
        'upload-length': '100',
        'upload-metadata': tusMetadata(metadata),
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    // 128 random bits, base64url.
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const url = new URL(location, endpoint);
    const tusHeaders = { ...TUS_HEADERS };

    // Same origin as the page: no CORS, as on the rest of the task API.
    expect(created.headers.get('access-control-allow-origin')).toBeNull();
    const options = await fetch(endpoint, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('tus-version'), options.headers.get('tus-max-size')]).toEqual([
      204,
      '1.0.0',
      String(10 * 1024 * 1024),
    ]);
    expect(options.headers.get('tus-extension')).toContain('termination');

    const anonymous = await fetch(endpoint, {
      method: 'POST',
      headers: { ...tusHeaders, 'upload-length': '100', 'upload-metadata': tusMetadata(metadata) },
    });
    expect(anonymous.status).toBe(401);
    expect((await fetch(url, { method: 'HEAD', headers: tusHeaders })).status).toBe(401);
    for (const method of ['HEAD', 'DELETE']) {
      expect((await fetch(url, { method, headers: { ...tusHeaders, ...bearer(stranger.token) } })).status).toBe(404);
    }
    const patch = await fetch(url, {
      method: 'PATCH',
      headers: { ...tusHeaders, ...bearer(stranger.token), 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.alloc(100),
    });
    expect(patch.status).toBe(404);
    const own = await fetch(url, { method: 'HEAD', headers: { ...tusHeaders, ...bearer(owner.token) } });
    expect([own.status, own.headers.get('upload-offset')]).toEqual([200, '0']);

    // Only tus's own content type passes the task API's 16 KB body limit unread.
    const json = await fetch(url, {
      method: 'PATCH',
      headers: { ...tusHeaders, ...bearer(owner.token), 'upload-offset': '0', 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(100_000) }),
    });
    expect(json.status).toBe(413);
    expect(await json.json()).toMatchObject({ error: { code: 'body_too_large' } });
  });
});
