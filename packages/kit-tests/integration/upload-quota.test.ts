import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadSettings } from '@partner-task-kit/server/uploads/upload-routes';
import { bearer, newContext, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases, type TestDatabaseEngine } from '../helpers/test-databases';
import {
  noisyPhoto,
  TUS_HEADERS,
  tusMetadata,
  uploadPartly,
  uploadWithTus,
  welcomePhoto,
  welcomePhotoRuleOf,
} from '../helpers/tus-uploads';
import { testUploadStores, type TestUploadStore, type TestUploadStoreKind } from '../helpers/upload-stores';

/*
 * docs/api.md#uploads, docs/configuration.md#uploads: the quota bounds what a task holds, whatever its attempt, checked
 * and taken in one step; "Start again" removes the last attempt's files no saved step names; an upload is taken only
 * for a file field of the step the worker may answer now.
 */

/** safety-training's first step, given a file field of the test's own (the rule `fileRuleOf` injects). */

interface Harness {
  t: TaskApp;
  endpoint: string;
  close(): Promise<void>;
}

async function openHarness(engine: TestDatabaseEngine, uploads: UploadSettings, store?: TestUploadStore): Promise<Harness> {
  const t = await openTaskApp({ engine, uploads, ...(store ? { uploadFiles: store.files } : {}) });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const endpoint = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/task/uploads`;
  return { t, endpoint, close: () => t.close() };
}

/** A tus creation (POST) and nothing more: its status and its error code, if any. */
async function create(h: Harness, token: string, target: { stepId: string; field: string }, length = 1000) {
  const response = await fetch(h.endpoint, {
    method: 'POST',
    headers: {
      ...bearer(token),
      ...TUS_HEADERS,
      'upload-length': String(length),
      'upload-metadata': tusMetadata({ filename: 'photo.jpg', filetype: 'image/jpeg', ...target }),
    },
  });
  const text = await response.text();
  const code = text.startsWith('{') ? (JSON.parse(text) as { error?: { code?: string } }).error?.code : undefined;
  return { status: response.status, code };
}

async function postJson(h: Harness, token: string, path: string, body: unknown) {
  const response = await fetch(new URL(path, h.endpoint), {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { error?: { code?: string } };
  return { status: response.status, code: json.error?.code, body: json };
}

async function session(h: Harness, workflow?: string): Promise<string> {
  const response = await fetch(new URL('/api/session', h.endpoint), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...newContext(), ...(workflow ? { workflow } : {}) }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

const uploadRows = (h: Harness) =>
  h.t.database.store.db.selectFrom('uploads').select(['id', 'attempt', 'declared_bytes', 'state', 'saved_at']).orderBy('id').execute();

describe.each(testDatabases)('the upload quota under concurrent creations on $name', (engine) => {
  let h: Harness;
  afterEach(() => h.close());

  it('takes at most the quota of files of 40 creations at once', async () => {
    h = await openHarness(engine, { fileRuleOf: welcomePhotoRuleOf, maxFilesPerTask: 5 });
    const token = await session(h);
    const results = await Promise.all(Array.from({ length: 40 }, () => create(h, token, welcomePhoto)));
    expect(results.filter((result) => result.status === 201)).toHaveLength(5);
    expect(new Set(results.filter((result) => result.status !== 201).map((result) => `${result.status} ${result.code}`))).toEqual(
      new Set(['413 upload_quota_exceeded']),
    );
    expect(await uploadRows(h)).toHaveLength(5);
  });

  it('takes at most the quota of bytes of 40 creations at once', async () => {
    h = await openHarness(engine, { fileRuleOf: welcomePhotoRuleOf, maxFilesPerTask: 1000, maxBytesPerTask: 10_000 });
    const token = await session(h);
    const results = await Promise.all(Array.from({ length: 40 }, () => create(h, token, welcomePhoto, 1000)));
    expect(results.filter((result) => result.status === 201)).toHaveLength(10);
    const rows = await uploadRows(h);
    expect(rows.reduce((sum, row) => sum + Number(row.declared_bytes), 0)).toBe(10_000);
  });
});

const storesAndEngines = testUploadStores.flatMap((kind) =>
  testDatabases.map((engine) => ({ name: `the ${kind.name} store on ${engine.name}`, kind, engine })),
);

describe.each(storesAndEngines)(
  '"Start again" and the quota in $name',
  ({ kind, engine }: { kind: TestUploadStoreKind; engine: TestDatabaseEngine }) => {
    let store: TestUploadStore;
    let h: Harness;
    beforeEach(async () => {
      store = await kind.open();
      h = await openHarness(engine, { fileRuleOf: welcomePhotoRuleOf, maxFilesPerTask: 3 }, store);
    });
    afterEach(async () => {
      await h.close();
      await store.cleanup();
    });

    /** Whether the store still holds anything named after the upload: its bytes, tus's record, a part. */
    const heldInStore = async (ids: readonly string[]) => {
      const names = (await store.objects()).map((object) => object.name);
      return ids.filter((id) => names.some((name) => name.includes(id)));
    };

    it('leaves the task one attempt’s quota after three restarts, each new attempt uploading its own', async () => {
      const token = await session(h);
      const earlier: string[] = [];
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        // Two files sent whole, one left half way: the quota of 3, full.
        const ids = [
          await uploadWithTus(h.endpoint, token, await noisyPhoto(attempt * 10 + 1), welcomePhoto),
          await uploadWithTus(h.endpoint, token, await noisyPhoto(attempt * 10 + 2), welcomePhoto),
          await uploadPartly(h.endpoint, token, await noisyPhoto(attempt * 10 + 3), 500, welcomePhoto),
        ];
        expect(await create(h, token, welcomePhoto)).toEqual({ status: 413, code: 'upload_quota_exceeded' });
        expect(await heldInStore(ids)).toEqual(ids);
        // What the task holds: this attempt's files, none of the earlier ones'.
        expect((await uploadRows(h)).map((row) => row.id).sort()).toEqual([...ids].sort());
        expect(await heldInStore(earlier)).toEqual([]);
        if (attempt === 4) break;
        expect((await postJson(h, token, '/api/task/start', {})).status).toBe(200);
        expect((await postJson(h, token, '/api/task/restart', {})).status).toBe(200);
        earlier.push(...ids);
        // The bytes go after the restart's commit: the rows last, once their bytes are gone.
        await expect.poll(async () => (await uploadRows(h)).length, { timeout: 10_000 }).toBe(0);
        expect(await heldInStore(earlier)).toEqual([]);
        expect(await store.openMultipartUploads()).toEqual([]);
      }
    });
  },
);

describe.each(testDatabases)('uploads for the step at hand on $name', (engine) => {
  let h: Harness;
  afterEach(() => h.close());

  /** A work-authorization task walked to its photos step (citizen: national ID first). */
  async function atPhotos(): Promise<string> {
    const token = await session(h, 'work-authorization');
    expect((await postJson(h, token, '/api/task/steps/citizenship', { data: { citizen: true } })).status).toBe(200);
    expect((await postJson(h, token, '/api/task/steps/national-id', { data: { nationalId: 'X1234567' } })).status).toBe(200);
    return token;
  }

  it('refuses a field named after a property every object has, before anything is stored', async () => {
    h = await openHarness(engine, {});
    const token = await atPhotos();
    for (const field of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect([field, await create(h, token, { stepId: 'photos', field })]).toEqual([
        field,
        { status: 400, code: 'invalid_upload_metadata' },
      ]);
    }
    expect(await uploadRows(h)).toEqual([]);
    expect(await create(h, token, { stepId: 'photos', field: 'front' })).toEqual({ status: 201, code: undefined });
  });

  it('refuses an upload for a later step’s field, takes it once the task is there, and again after "Back"', async () => {
    h = await openHarness(engine, {});
    const token = await session(h, 'work-authorization');
    const front = { stepId: 'photos', field: 'front' };
    expect(await create(h, token, front)).toEqual({ status: 409, code: 'step_out_of_order' });
    expect((await postJson(h, token, '/api/task/steps/citizenship', { data: { citizen: true } })).status).toBe(200);
    expect(await create(h, token, front)).toEqual({ status: 409, code: 'step_out_of_order' });
    expect(await uploadRows(h)).toEqual([]);

    expect((await postJson(h, token, '/api/task/steps/national-id', { data: { nationalId: 'X1234567' } })).status).toBe(200);
    const photos = {
      front: await uploadWithTus(h.endpoint, token, await noisyPhoto(1), front),
      back: await uploadWithTus(h.endpoint, token, await noisyPhoto(2), { stepId: 'photos', field: 'back' }),
    };
    expect((await postJson(h, token, '/api/task/steps/photos', { data: photos })).status).toBe(200);
    // Past it, the photos step takes no more files: "Back" brings the worker to it again, and then it does.
    expect(await create(h, token, front)).toEqual({ status: 409, code: 'step_out_of_order' });
    expect((await postJson(h, token, '/api/task/back', { from: 'postcode' })).status).toBe(200);
    expect(await create(h, token, front)).toEqual({ status: 201, code: undefined });
  });

  it('keeps an earlier attempt’s saved files, uncounted, and removes its others on "Start again"', async () => {
    h = await openHarness(engine, { maxFilesPerTask: 3 });
    const token = await atPhotos();
    const front = { stepId: 'photos', field: 'front' };
    const saved = {
      front: await uploadWithTus(h.endpoint, token, await noisyPhoto(1), front),
      back: await uploadWithTus(h.endpoint, token, await noisyPhoto(2), { stepId: 'photos', field: 'back' }),
    };
    expect((await postJson(h, token, '/api/task/steps/photos', { data: saved })).status).toBe(200);
    expect((await postJson(h, token, '/api/task/back', { from: 'postcode' })).status).toBe(200);
    const retaken = await uploadWithTus(h.endpoint, token, await noisyPhoto(3), front);
    expect(await create(h, token, front)).toEqual({ status: 413, code: 'upload_quota_exceeded' });

    expect((await postJson(h, token, '/api/task/restart', {})).status).toBe(200);
    await expect.poll(async () => (await uploadRows(h)).map((row) => row.id), { timeout: 10_000 }).not.toContain(retaken);
    expect(await h.t.uploadFiles.open(retaken)).toBeUndefined();
    // The first attempt's answers stay with their files, and leave the new attempt its whole quota.
    expect((await uploadRows(h)).map((row) => row.id).sort()).toEqual([saved.front, saved.back].sort());
    expect((await postJson(h, token, '/api/task/steps/citizenship', { data: { citizen: true } })).status).toBe(200);
    expect((await postJson(h, token, '/api/task/steps/national-id', { data: { nationalId: 'X1234567' } })).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect(await create(h, token, front)).toEqual({ status: 201, code: undefined });
    expect(await create(h, token, front)).toEqual({ status: 413, code: 'upload_quota_exceeded' });
  });
});
