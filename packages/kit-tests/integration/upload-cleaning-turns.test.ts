import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { directoryUploadFiles } from '@partner-task-kit/server/uploads/upload-files';
import { scanBomb } from '../helpers/scan-bomb';
import { bearer, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { tusMetadata, welcomePhoto, welcomePhotoRuleOf } from '../helpers/tus-uploads';

/**
 * Uploads cleaned beside files that cost much to decode (docs/api.md#uploads), through the real tus routes over
 * loopback. The scan bound, the deadline and the turns do not depend on where the bytes are kept: the directory store
 * only.
 */
/** A field of the test's own, on the first step of the default workflow, where a new task is. */
const uploadMetadata = tusMetadata({ filename: 'photo.jpg', filetype: 'image/jpeg', ...welcomePhoto });

/** A photo as small as a JPEG gets: 16x16 of one colour, under 300 bytes. */
const tinyPhoto = () =>
  sharp({ create: { width: 16, height: 16, channels: 3, background: '#c33' } })
    .jpeg()
    .toBuffer();

describe.each(testDatabases)('cleaning uploads in turns, under a budget and a deadline, on $name', (engine) => {
  let t: TaskApp | undefined;
  let directory: string;
  let endpoint: string;

  async function open(env: Record<string, string> = {}) {
    directory = mkdtempSync(join(tmpdir(), 'ptk-cleaning-turns-'));
    t = await openTaskApp({ engine, env, uploadFiles: directoryUploadFiles(directory), uploads: { fileRuleOf: welcomePhotoRuleOf } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    endpoint = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/task/uploads`;
    return t;
  }
  afterEach(async () => {
    await t?.close();
    t = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  /** One file sent whole: its creation, then all its bytes in one PATCH, whose answer comes once it is cleaned. */
  async function send(token: string, bytes: Buffer): Promise<{ status: number; code?: string; message?: string; at: number }> {
    const headers = { ...bearer(token), 'tus-resumable': '1.0.0' };
    const created = await fetch(endpoint, {
      method: 'POST',
      headers: { ...headers, 'upload-length': String(bytes.length), 'upload-metadata': uploadMetadata },
    });
    expect(created.status).toBe(201);
    const patched = await fetch(new URL(created.headers.get('location')!, endpoint), {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(bytes),
    });
    const at = performance.now();
    const text = await patched.text();
    const error = text.startsWith('{') ? (JSON.parse(text) as { error?: { code: string; message: string } }).error : undefined;
    return { status: patched.status, ...(error ? { code: error.code, message: error.message } : {}), at };
  }

  it("answers another task's small photo within 3 s while a JPEG of 3,000 scans is cleaned, and refuses that one", async () => {
    const app = await open();
    const [bomber, other] = [await openSession(app.app), await openSession(app.app)];
    // 48 MP of one grey and 3,000 scans more, some 500 KB: about 10 s of a core to decode here.
    const bomb = await scanBomb({ width: 8000, height: 6000, extraScans: 3000 });
    const photo = await tinyPhoto();
    expect(photo.length).toBeLessThan(300);

    const started = performance.now();
    const bombAnswer = send(bomber.token, bomb);
    // Its bytes in, and its cleaning under way, when the other photo comes.
    await sleep(500);
    const photoSent = performance.now();
    const photoAnswer = await send(other.token, photo);
    expect(photoAnswer).toMatchObject({ status: 204 });
    expect(photoAnswer.at - photoSent).toBeLessThan(3_000);
    const refused = await bombAnswer;
    expect(refused).toMatchObject({ status: 415, code: 'unsupported_file_type', message: expect.stringContaining('more than 100 scans') });
    expect(refused.at - started).toBeLessThan(20_000);
    const rows = await app.database.store.db.selectFrom('uploads').select(['task_id', 'state']).execute();
    expect(rows).toEqual([{ task_id: expect.any(String), state: 'completed' }]);
  });

  it('stops a file whose decoding is past the deadline, keeps nothing of it, and cleans the next one', async () => {
    const app = await open({ UPLOAD_CLEANING_TIMEOUT_MS: '300' });
    const session = await openSession(app.app);
    // 48 MP and 90 scans more: within the scan bound, and still over half a second of a core to decode.
    const slow = await scanBomb({ width: 8000, height: 6000, extraScans: 90 });
    const refused = await send(session.token, slow);
    expect(refused).toMatchObject({ status: 415, code: 'unsupported_file_type', message: expect.stringContaining('took too long') });
    expect(readdirSync(directory)).toEqual([]);
    expect(await app.database.store.db.selectFrom('uploads').selectAll().execute()).toEqual([]);
    expect(await send(session.token, await tinyPhoto())).toMatchObject({ status: 204 });
  });

  it("cleans a task's one file before another task's later ones, with one process", async () => {
    const app = await open({ UPLOAD_CLEANING_PROCESSES: '1' });
    const [busy, other] = [await openSession(app.app), await openSession(app.app)];
    // Half a second or so of a core each: the turns are taken while the first is decoded.
    const slow = await scanBomb({ width: 8000, height: 6000, extraScans: 60 });
    const busyAnswers = [1, 2, 3].map(() => send(busy.token, slow));
    await sleep(300);
    const otherAnswer = await send(other.token, await tinyPhoto());
    const answered = await Promise.all(busyAnswers);
    expect([...answered.map((answer) => answer.status), otherAnswer.status]).toEqual([204, 204, 204, 204]);
    // The busy task's first file may be under way when the other task's comes; none of its later ones go first.
    expect(answered.filter((answer) => answer.at < otherAnswer.at).length).toBeLessThanOrEqual(1);
  });
});
