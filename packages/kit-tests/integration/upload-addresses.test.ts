import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@partner-task-kit/workflow/contract/api-errors';
import { bearer, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { noisyPhoto, TUS_HEADERS, tusMetadata, uploadWithTus, welcomePhoto, welcomePhotoRuleOf } from '../helpers/tus-uploads';
import { rawRequest } from '../helpers/raw-upload-requests';
import { testUploadStores, type TestUploadStore } from '../helpers/upload-stores';

/*
 * An upload is reached by one address, `/api/task/uploads/<id>`, and the id in its path is the one every layer acts
 * on (docs/api.md#uploads). tus reads an id from the end of the whole URL: these tests send what a browser's fetch
 * would normalise away, over a raw socket, as an attacker would.
 */

/** A field of the test's own, on the first step of the default workflow, where a new task is. */
const PHONE_FILE_NAME = 'passport_Maria_Garcia_Lopez.jpg';

const storesAndEngines = testUploadStores.flatMap((store) =>
  testDatabases.map((engine) => ({ name: `the ${store.name} store on ${engine.name}`, store, engine })),
);

describe.each(storesAndEngines)('upload addresses, $name', ({ store, engine }) => {
  let t: TaskApp;
  let kept: TestUploadStore;
  let port: number;
  let endpoint: string;

  beforeEach(async () => {
    kept = await store.open();
    t = await openTaskApp({ engine, uploadFiles: kept.files, uploads: { fileRuleOf: welcomePhotoRuleOf } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    endpoint = `http://127.0.0.1:${port}/api/task/uploads`;
  });
  afterEach(async () => {
    await t.close();
    await kept.cleanup();
  });

  /** An upload created for `length` bytes, none sent yet: its id. */
  async function createUpload(token: string, length: number, metadata: Record<string, string> = welcomePhoto): Promise<string> {
    const created = await fetch(endpoint, {
      method: 'POST',
      headers: { ...bearer(token), ...TUS_HEADERS, 'upload-length': String(length), 'upload-metadata': tusMetadata(metadata) },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    return created.headers.get('location')!.split('/').pop()!;
  }

  async function offsetSeenByOwner(token: string, id: string): Promise<string | null> {
    const head = await fetch(`${endpoint}/${id}`, { method: 'HEAD', headers: { ...bearer(token), ...TUS_HEADERS } });
    return head.status === 200 ? head.headers.get('upload-offset') : `status ${head.status}`;
  }

  it('reaches no other upload through a query string or another form of the address', async () => {
    const victim = await openSession(t.app);
    const attacker = await openSession(t.app);
    const theirs = await createUpload(victim.token, 4321, { ...welcomePhoto, filename: PHONE_FILE_NAME });
    const mine = await createUpload(attacker.token, 100);
    const patchHeaders = {
      ...bearer(attacker.token),
      ...TUS_HEADERS,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    };

    const forms = [
      `/api/task/uploads/${mine}?x=/${theirs}`,
      `/api/task/uploads/${mine}?/${theirs}`,
      `/api/task/uploads/${mine}#/${theirs}`,
      `/api/task/uploads/${mine}%2F${theirs}`,
      `/api/task/uploads/${mine}/${theirs}`,
      `/api/task/uploads/${mine}/../${theirs}`,
      `/api/task/uploads/${theirs}/`,
      `/api/task//uploads/${theirs}`,
      `/api/task/uploads/${theirs.slice(0, 1)}%${theirs.charCodeAt(1).toString(16)}${theirs.slice(2)}`,
      `/api/task/uploads?x=/${theirs}`,
    ];
    for (const path of forms) {
      const head = await rawRequest(port, 'HEAD', path, { ...bearer(attacker.token), ...TUS_HEADERS });
      expect(head.status, `HEAD ${path}`).toBeGreaterThanOrEqual(400);
      expect(head.headers['upload-length'], `HEAD ${path}`).toBeUndefined();
      expect(head.headers['upload-metadata'], `HEAD ${path}`).toBeUndefined();
      const patch = await rawRequest(port, 'PATCH', path, patchHeaders, Buffer.alloc(50, 7));
      expect(patch.status, `PATCH ${path}`).toBeGreaterThanOrEqual(400);
      const removal = await rawRequest(port, 'DELETE', path, { ...bearer(attacker.token), ...TUS_HEADERS });
      expect(removal.status, `DELETE ${path}`).toBeGreaterThanOrEqual(400);
    }
    // Nothing of either upload changed: the victim's is whole and untouched, the attacker's own got no byte either.
    expect(await offsetSeenByOwner(victim.token, theirs)).toBe('0');
    expect(await offsetSeenByOwner(attacker.token, mine)).toBe('0');
  });

  it('refuses a query string on its own upload too, and after it is complete adds nothing to the cleaned file', async () => {
    const session = await openSession(t.app);
    const photo = await noisyPhoto(3);
    const id = await uploadWithTus(endpoint, session.token, photo, welcomePhoto);
    const stored = await t.uploadFiles.open(id);
    const before = Buffer.concat(await stored!.toArray());
    const headers = { ...bearer(session.token), ...TUS_HEADERS, 'content-type': 'application/offset+octet-stream' };
    const appended = await rawRequest(
      port,
      'PATCH',
      `/api/task/uploads/${id}?x=/${id}`,
      { ...headers, 'upload-offset': String(before.length) },
      Buffer.alloc(64, 1),
    );
    expect(appended.status).toBe(400);
    expect(JSON.parse(appended.body)).toMatchObject({ error: { code: 'bad_request' } });
    const after = Buffer.concat(await (await t.uploadFiles.open(id))!.toArray());
    expect(after.equals(before)).toBe(true);
  });

  it('answers every refusal of the upload path as a JSON error of the contract', async () => {
    const session = await openSession(t.app);
    const id = await createUpload(session.token, 100);
    const auth = bearer(session.token);
    const octets = { 'content-type': 'application/offset+octet-stream' };
    const refusals: [string, string, Record<string, string>, Buffer | undefined, number, string][] = [
      ['PATCH', `/api/task/uploads/${id}`, { ...auth, ...octets, 'upload-offset': '0' }, Buffer.alloc(10), 412, 'tus_resumable_required'],
      [
        'PATCH',
        `/api/task/uploads/${id}`,
        { ...auth, ...TUS_HEADERS, ...octets, 'upload-offset': '5' },
        Buffer.alloc(10),
        409,
        'upload_offset_mismatch',
      ],
      ['PATCH', `/api/task/uploads/${id}`, { ...auth, ...TUS_HEADERS, ...octets }, Buffer.alloc(10), 403, 'upload_header_missing'],
      [
        'POST',
        '/api/task/uploads',
        { ...auth, ...TUS_HEADERS, 'upload-length': '0', 'upload-metadata': tusMetadata(welcomePhoto) },
        undefined,
        400,
        'invalid_upload_metadata',
      ],
      [
        'POST',
        '/api/task/uploads',
        { ...auth, ...TUS_HEADERS, 'upload-length': 'ten', 'upload-metadata': tusMetadata(welcomePhoto) },
        undefined,
        400,
        'bad_request',
      ],
      [
        'POST',
        '/api/task/uploads',
        { ...auth, ...TUS_HEADERS, 'upload-defer-length': '1', 'upload-metadata': tusMetadata(welcomePhoto) },
        undefined,
        400,
        'invalid_upload_metadata',
      ],
      [
        'PATCH',
        `/api/task/uploads/${'A'.repeat(22)}`,
        { ...auth, ...TUS_HEADERS, ...octets, 'upload-offset': '0' },
        Buffer.alloc(10),
        404,
        'not_found',
      ],
      [
        'PATCH',
        `/api/task/uploads/${id}?v=1`,
        { ...auth, ...TUS_HEADERS, ...octets, 'upload-offset': '0' },
        Buffer.alloc(10),
        400,
        'bad_request',
      ],
    ];
    for (const [method, path, headers, body, status, code] of refusals) {
      const answer = await rawRequest(port, method, path, headers, body);
      const label = `${method} ${path} ${JSON.stringify(headers)}`;
      expect(answer.status, label).toBe(status);
      expect(answer.headers['content-type'], label).toMatch(/^application\/json/);
      const parsed = errorBodySchema.safeParse(JSON.parse(answer.body));
      expect(parsed.success, `${label}: ${answer.body}`).toBe(true);
      expect(parsed.data?.error.code, label).toBe(code);
    }
    expect(await offsetSeenByOwner(session.token, id)).toBe('0');
  });

  it("keeps no file name of the phone's in the store, and answers none", async () => {
    const session = await openSession(t.app);
    const unfinished = await createUpload(session.token, 5000, { ...welcomePhoto, filename: PHONE_FILE_NAME, filetype: 'image/jpeg' });
    const completed = await uploadWithTus(endpoint, session.token, await noisyPhoto(5), welcomePhoto);
    const head = await fetch(`${endpoint}/${unfinished}`, { method: 'HEAD', headers: { ...bearer(session.token), ...TUS_HEADERS } });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-metadata') ?? '').not.toContain(Buffer.from(PHONE_FILE_NAME).toString('base64'));
    expect(head.headers.get('upload-metadata') ?? '').not.toContain(Buffer.from('IMG_0001.jpg').toString('base64'));
    const objects = await kept.objects();
    expect(objects.length).toBeGreaterThan(0);
    for (const name of [PHONE_FILE_NAME, 'IMG_0001.jpg']) {
      for (const encoding of ['utf8', 'base64'] as const) {
        const needle = encoding === 'utf8' ? name : Buffer.from(name).toString('base64');
        const holding = objects.filter((object) => object.bytes.includes(needle)).map((object) => object.name);
        expect(holding, `${name} (${encoding})`).toEqual([]);
      }
    }
    const rows = await t.database.store.db.selectFrom('uploads').selectAll().execute();
    expect(rows.map((row) => row.id).sort()).toEqual([unfinished, completed].sort());
    expect(JSON.stringify(rows)).not.toContain('IMG_0001');
  });
});
