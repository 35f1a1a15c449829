import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newPartnerKey } from '@partner-task-kit/server/partner-api/partner-key-secret';
import { runRetention } from '@partner-task-kit/server/retention/retention-job';
import { eraseWorker } from '@partner-task-kit/server/retention/worker-erasure';
import { insertPartnerKey } from '@partner-task-kit/server/store/partner-keys.repository';
import type { Store } from '@partner-task-kit/server/store/store';
import { findTaskByAssignedTaskUuid, purgeUnconfirmedTasks } from '@partner-task-kit/server/store/tasks.repository';
import { findUpload } from '@partner-task-kit/server/store/uploads.repository';
import type { WorkerExport } from '@partner-task-kit/server/store/worker-data.repository';
import type { UploadFiles } from '@partner-task-kit/server/uploads/upload-files';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { runKitCommand } from '../helpers/run-command';
import { bearer, newContext, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { noisyPhoto, uploadPartly, uploadWithTus } from '../helpers/tus-uploads';
import { testUploadStores, type TestUploadStore } from '../helpers/upload-stores';
import { deliverEverything } from '../helpers/worker-answers';

/*
 * docs/operations.md#files: a worker's files follow their data, in both stores and on both engines. The files are
 * work-authorization's photos of a document, sent with tus-js-client over real HTTP and named by the photos step
 * through the task API; the commands run as an operator runs them, in a process of their own.
 */

const DAY = 24 * 60 * 60_000;
const noPause = { minPauseMs: 0, pausePerBusy: 0 };
const retention = { outboxMs: 365 * DAY, taskDataMs: 30 * DAY };
const photos = { stepId: 'photos', field: 'front' };
const backPhoto = { stepId: 'photos', field: 'back' };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What one upload left to look for in a store: the bytes sent and, once complete, the (cleaned) bytes stored. */
interface Sent {
  id: string;
  sent: Buffer;
  stored?: Buffer;
}

describe.each(testDatabases)('a worker’s files on $name', (engine) => {
  describe.each(testUploadStores)('in the $name store', (kind) => {
    let uploadStore: TestUploadStore;
    let t: TaskApp;
    let store: Store;
    let endpoint: string;
    beforeEach(async () => {
      uploadStore = await kind.open();
      t = await openTaskApp({ engine, uploadFiles: uploadStore.files });
      store = t.database.store;
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      endpoint = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/task/uploads`;
    });
    afterEach(async () => {
      await t.close();
      await uploadStore.cleanup();
    });

    // The AWS SDK warns on standard error that its 2027 versions need Node 22: not this command's output.
    const quietSdk = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
    const tasksCommand = (...args: string[]) =>
      runKitCommand('tasks', { DATABASE_URL: t.database.url, ...uploadStore.env, ...quietSdk }, 60_000, args);

    async function storedBytes(id: string): Promise<Buffer | undefined> {
      const stream = await uploadStore.files.open(id);
      if (!stream) return undefined;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    }

    /** A completed upload to the task of `token`, with the bytes sent and those stored. */
    async function uploaded(token: string, seed: number, target = photos): Promise<Sent> {
      const sent = await noisyPhoto(seed);
      const id = await uploadWithTus(endpoint, token, sent, target);
      const stored = await storedBytes(id);
      expect(stored?.length).toBeGreaterThan(1000);
      return { id, sent, stored };
    }

    /** An upload left half way, with the part of it sent. */
    async function halfUploaded(token: string, seed: number): Promise<Sent> {
      const file = await noisyPhoto(seed);
      const sent = file.subarray(0, Math.floor(file.length / 2));
      return { id: await uploadPartly(endpoint, token, file, sent.length, photos), sent };
    }

    /** A session of a work-authorization task, whose photos step asks for the document's front and back. */
    async function session(context: TaskContext = newContext()) {
      const response = await t.app.inject({ method: 'POST', url: '/api/session', payload: { ...context, workflow: 'work-authorization' } });
      expect(response.statusCode).toBe(200);
      return { context, token: (response.json() as { token: string }).token };
    }

    /** A session's task, with the answers up to its photos step given: a file is taken for the step at hand only. */
    async function atPhotos(context: TaskContext = newContext()) {
      const opened = await session(context);
      await answer(opened.token, [
        ['citizenship', { citizen: true }],
        ['national-id', { nationalId: 'X1234567' }],
      ]);
      return opened;
    }

    /** The worker saves the photos step naming `front` and `back`, through the task API. */
    const savePhotos = (token: string, front: Sent, back: Sent) => answer(token, [['photos', { front: front.id, back: back.id }]]);

    async function answer(token: string, steps: [string, unknown][]) {
      for (const [stepId, data] of steps) {
        const response = await t.app.inject({
          method: 'POST',
          url: `/api/task/steps/${stepId}`,
          headers: bearer(token),
          payload: { data },
        });
        expect([stepId, response.statusCode]).toEqual([stepId, 200]);
      }
    }

    /** A new attempt of the task of `token`, the first one started, walked again to its photos step. */
    async function restart(token: string) {
      for (const url of ['/api/task/start', '/api/task/restart']) {
        const response = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload: {} });
        expect(response.statusCode).toBe(200);
      }
      await answer(token, [
        ['citizenship', { citizen: true }],
        ['national-id', { nationalId: 'X1234567' }],
      ]);
    }

    const rowIds = async () => (await store.db.selectFrom('uploads').select('id').orderBy('id').execute()).map((row) => row.id);

    /**
     * The files some object of the store holds bytes of, whatever its name: the start of what was stored, or a stretch
     * from the middle or the end of what was sent (a piece of an unfinished upload, a copy kept aside).
     */
    async function bytesFoundOf(files: Sent[]): Promise<string[]> {
      const objects = await uploadStore.objects();
      return files
        .filter((file) => {
          const middle = file.sent.subarray(Math.floor(file.sent.length / 2) - 128, Math.floor(file.sent.length / 2) + 128);
          const samples = [middle, file.sent.subarray(-256), ...(file.stored ? [file.stored.subarray(0, 4096)] : [])];
          return objects.some((object) => samples.some((sample) => object.bytes.includes(sample)));
        })
        .map((file) => file.id);
    }

    async function partnerKey(): Promise<string> {
      const { key, prefix, keyHash } = newPartnerKey();
      const created = await insertPartnerKey(store.db, {
        name: 'dpo',
        prefix,
        keyHash,
        companyUuid: null,
        revealSensitive: false,
        now: t.clock.now(),
      });
      if (!created.ok) throw new Error('key not created');
      return key;
    }

    const download = (key: string, context: TaskContext, file: Sent) =>
      fetch(`${new URL(endpoint).origin}/api/partner/v1/tasks/${context.wxAssignedTaskUuid}/uploads/${file.id}`, { headers: bearer(key) });

    it('erase removes the worker’s files, bytes and rows, from every task and attempt, says how many, and keeps others’', async () => {
      const x = newContext();
      const first = await atPhotos(x);
      const [front, back] = [await uploaded(first.token, 1), await uploaded(first.token, 6, backPhoto)];
      await savePhotos(first.token, front, back);
      // The first attempt's photos stay with its answers; the second's, one left half way, are its own.
      await restart(first.token);
      const xFiles = [front, back, await halfUploaded(first.token, 2)];
      xFiles.push(await uploaded(first.token, 3));
      // 9 of 10 MiB: on S3 an 8 MiB part of a multipart upload that stays open (no object of the bucket), the rest a `.part`.
      const large = randomBytes(10 * 1024 * 1024);
      const largeSent = large.subarray(0, 9 * 1024 * 1024);
      const largeId = await uploadPartly(endpoint, first.token, large, largeSent.length, photos);
      xFiles.push({ id: largeId, sent: largeSent });
      const secondTask = { ...newContext(), wxWorkerUuid: x.wxWorkerUuid.toUpperCase() };
      const second = await atPhotos(secondTask);
      xFiles.push(await uploaded(second.token, 4, backPhoto));
      const y = await atPhotos();
      const yFile = await uploaded(y.token, 5);
      const key = await partnerKey();
      // The test can fail: before the erasure, every file is there to be found, and the partner downloads them.
      expect(await bytesFoundOf(xFiles)).toEqual(xFiles.map((file) => file.id));
      const inParts = (await uploadStore.openMultipartUploads()).filter((objectKey) => objectKey.endsWith(largeId));
      expect(inParts).toHaveLength(kind.name === 's3' ? 1 : 0);
      const before = await download(key, secondTask, xFiles[5]!);
      expect([before.status, Buffer.from(await before.arrayBuffer())]).toEqual([200, xFiles[5]!.stored]);

      const result = await tasksCommand('erase', '--worker', x.wxWorkerUuid);

      expect(result.code).toBe(0);
      expect(result.stdout).toContain('\n6 uploaded file(s) were removed from the upload store, with their records.\n');
      expect(await rowIds()).toEqual([yFile.id]);
      expect(await bytesFoundOf(xFiles)).toEqual([]);
      expect(await uploadStore.openMultipartUploads()).toEqual([]);
      for (const file of xFiles) expect(await uploadStore.files.open(file.id)).toBeUndefined();
      for (const [context, file] of [
        [x, front],
        [x, back],
        [x, xFiles[3]!],
        [secondTask, xFiles[5]!],
      ] as const) {
        expect((await download(key, context, file)).status).toBe(404);
      }
      expect(await storedBytes(yFile.id)).toEqual(yFile.stored);
      expect(await bytesFoundOf([yFile])).toEqual([yFile.id]);
      const kept = await download(key, y.context, yFile);
      expect([kept.status, Buffer.from(await kept.arrayBuffer())]).toEqual([200, yFile.stored]);
    }, 120_000);

    it('export --out writes each completed file beside the JSON, which gives its type, size and sha256', async () => {
      const x = newContext();
      const { token } = await atPhotos(x);
      const front = await uploaded(token, 11);
      const back = await uploaded(token, 12, backPhoto);
      const unfinished = await halfUploaded(token, 13);
      await savePhotos(token, front, back);
      const other = await atPhotos();
      await uploaded(other.token, 14);
      const out = join(mkdtempSync(join(tmpdir(), 'ptk-export-')), 'worker');
      try {
        const result = await tasksCommand('export', '--worker', x.wxWorkerUuid, '--out', out);

        expect(result).toMatchObject({ code: 0, stderr: '' });
        expect(result.stdout).toBe(`Wrote ${join(out, 'export.json')} and 2 uploaded file(s) in ${join(out, 'uploads')}\n`);
        const exported = JSON.parse(readFileSync(join(out, 'export.json'), 'utf8')) as WorkerExport;
        const uploads = exported.tasks.flatMap((task) => task.uploads);
        // The step data name the files the JSON describes and the directory holds.
        expect(exported.tasks[0]!.stepData).toMatchObject({ photos: { front: front.id, back: back.id } });
        expect(uploads.map((upload) => upload.id).sort()).toEqual([front.id, back.id, unfinished.id].sort());
        for (const file of [front, back]) {
          const listed = uploads.find((upload) => upload.id === file.id)!;
          expect(listed).toMatchObject({ state: 'completed', contentType: 'image/jpeg', file: `uploads/${file.id}.jpg` });
          const written = readFileSync(join(out, listed.file!));
          expect(written).toEqual(file.stored);
          expect([listed.bytes, listed.sha256]).toEqual([written.length, sha256(written)]);
        }
        expect(uploads.find((upload) => upload.id === front.id)!.savedAt).not.toBeNull();
        expect(uploads.find((upload) => upload.id === unfinished.id)).toMatchObject({
          state: 'uploading',
          file: null,
          sha256: null,
          savedAt: null,
        });
        expect(readdirSync(join(out, 'uploads')).sort()).toEqual([`${front.id}.jpg`, `${back.id}.jpg`].sort());
        // The worker's own: readable by the operator who ran it, nobody else.
        expect(statSync(out).mode & 0o777).toBe(0o700);
        expect(statSync(join(out, 'export.json')).mode & 0o777).toBe(0o600);

        // Without --out the JSON lists them and says where the bytes are not; a second --out into it is refused.
        const printed = await tasksCommand('export', '--worker', x.wxWorkerUuid);
        expect(printed.code).toBe(0);
        expect((JSON.parse(printed.stdout) as WorkerExport).tasks[0]!.uploads.map((upload) => upload.file)).toEqual([null, null, null]);
        expect(printed.stderr).toBe('export: 2 uploaded file(s) not written: add --out <directory> to write them beside the JSON\n');
        const refused = await tasksCommand('export', '--worker', x.wxWorkerUuid, '--out', out);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain('expected --out to name a new or empty directory');
      } finally {
        rmSync(join(out, '..'), { recursive: true, force: true });
      }
    }, 120_000);

    it('retention removes the files of every attempt with the answers of a finished task, and no other', async () => {
      const x = newContext();
      const { token } = await atPhotos(x);
      const firstAttempt = [await uploaded(token, 21), await uploaded(token, 24, backPhoto)] as const;
      await savePhotos(token, ...firstAttempt);
      await restart(token);
      const secondAttempt = [await uploaded(token, 22), await uploaded(token, 25, backPhoto)] as const;
      await savePhotos(token, ...secondAttempt);
      // Finished, as the partner's verification would end it (the appointment between needs the partner's backend).
      await store.db
        .updateTable('tasks')
        .set({ status: 'completed', current_step: null })
        .where('assigned_task_uuid', '=', x.wxAssignedTaskUuid)
        .execute();
      const open = await atPhotos();
      const kept = [await uploaded(open.token, 23), await uploaded(open.token, 26, backPhoto)] as const;
      await savePhotos(open.token, ...kept);
      await deliverEverything(store, t.clock.now());
      const gone = [...firstAttempt, ...secondAttempt];

      // Past a day but within the answers' 30: named by saved steps, every file stays.
      const early = await runRetention(store, { now: t.clock.now() + 2 * DAY, retention, uploadFiles: uploadStore.files }, noPause);
      expect(early).toMatchObject({ tasksErased: 0, files: 0 });
      expect(await bytesFoundOf(gone)).toEqual(gone.map((file) => file.id));

      const outcome = await runRetention(store, { now: t.clock.now() + 31 * DAY, retention, uploadFiles: uploadStore.files }, noPause);

      expect(outcome).toMatchObject({ tasksErased: 1, files: 4 });
      expect(await rowIds()).toEqual(kept.map((file) => file.id).sort());
      expect(await bytesFoundOf(gone)).toEqual([]);
      for (const file of kept) expect(await storedBytes(file.id)).toEqual(file.stored);
    }, 120_000);

    it('removes an upload no saved step named at a restart, or a day after its creation; one named stays', async () => {
      const x = newContext();
      const { token } = await atPhotos(x);
      // A photo of the front taken again: the first one is never named.
      const replaced = await uploaded(token, 32);
      const named = [await uploaded(token, 31), await uploaded(token, 35, backPhoto)] as const;
      await savePhotos(token, ...named);
      // Back on the photos step, a photo begun and given up half way.
      const back = await t.app.inject({ method: 'POST', url: '/api/task/back', headers: bearer(token), payload: { from: 'postcode' } });
      expect(back.statusCode).toBe(200);
      const abandoned = await halfUploaded(token, 33);
      // A new attempt starts with none of the old answers: the files a saved step of the first one named stay, the
      // others go with the restart, their bytes once it is committed.
      await restart(token);
      const namedIds = named.map((file) => file.id).sort();
      await expect.poll(rowIds, { timeout: 10_000 }).toEqual(namedIds);
      expect(await bytesFoundOf([replaced, abandoned])).toEqual([]);

      const stale = await uploaded(token, 34);
      const givenUp = await halfUploaded(token, 36);
      t.clock.advance(DAY - 60_000);
      // A session lasts less than a day: the worker comes back.
      const later = await session(x);
      const recent = await uploaded(later.token, 37);
      const retain = () => runRetention(store, { now: t.clock.now() + 120_000, retention, uploadFiles: uploadStore.files }, noPause);

      expect((await retain()).files).toBe(2);

      expect(await rowIds()).toEqual([...namedIds, recent.id].sort());
      expect(await bytesFoundOf([stale, givenUp])).toEqual([]);
      for (const file of named) expect(await storedBytes(file.id)).toEqual(file.stored);
      expect(await storedBytes(recent.id)).toEqual(recent.stored);
      // An upload removed answers as one that never was, and a step can no longer name it.
      const head = await fetch(`${endpoint}/${stale.id}`, {
        method: 'HEAD',
        headers: { ...bearer(later.token), 'tus-resumable': '1.0.0' },
      });
      expect(head.status).toBe(404);
      t.clock.advance(DAY);
      expect((await retain()).files).toBe(1);
      expect(await rowIds()).toEqual(namedIds);
    }, 120_000);

    it('a release removes the task’s files, and the retention job finishes a removal a failing store cut short', async () => {
      const x = newContext();
      const { token } = await atPhotos(x);
      const files = [await uploaded(token, 41), await uploaded(token, 42), await halfUploaded(token, 43)];
      const failing: UploadFiles = {
        kind: uploadStore.files.kind,
        datastore: () => uploadStore.files.datastore(),
        withLocalCopy: (id, use) => uploadStore.files.withLocalCopy(id, use),
        replace: (id, path) => uploadStore.files.replace(id, path),
        open: (id) => uploadStore.files.open(id),
        remove: async (id) => {
          if (id === files[1]!.id) throw new Error('the upload store does not answer');
          return uploadStore.files.remove(id);
        },
      };

      // The erasure stops at the store's failure before deleting a task: run again, it finds what is left.
      await expect(
        eraseWorker(store, { workerUuid: x.wxWorkerUuid, by: 'test', now: t.clock.now(), uploadFiles: failing }, noPause),
      ).rejects.toThrow('does not answer');
      expect(await findTaskByAssignedTaskUuid(store.db, x.wxAssignedTaskUuid)).toBeDefined();
      const left = await store.db.selectFrom('uploads').select(['id', 'state']).execute();
      // Bytes go before rows: every row whose bytes may be gone is still there, claimed.
      expect(left.map((row) => row.state)).toEqual(left.map(() => 'removing'));
      for (const file of files) {
        if (!left.some((row) => row.id === file.id)) expect(await bytesFoundOf([file])).toEqual([]);
      }
      expect(await bytesFoundOf([files[1]!])).toEqual([files[1]!.id]);

      const released = await tasksCommand('release', x.wxAssignedTaskUuid);

      expect(released.code).toBe(0);
      expect(released.stdout).toContain(`\n${left.length} uploaded file(s) of the task were removed from the upload store\n`);
      expect(await rowIds()).toEqual([]);
      expect(await bytesFoundOf(files)).toEqual([]);
    }, 120_000);

    it('a task purged unconfirmed loses its files, which the retention job removes', async () => {
      const rejected = newContext();
      const { token } = await atPhotos(rejected);
      const file = await uploaded(token, 61);
      const kept = await uploaded((await atPhotos()).token, 62);
      await store.db
        .updateTable('tasks')
        .set({ rejected_at: t.clock.now() })
        .where('assigned_task_uuid', '=', rejected.wxAssignedTaskUuid)
        .execute();

      expect(await purgeUnconfirmedTasks(store.db, t.clock.now() + 1, t.clock.now())).toBe(1);
      expect(await rowIds()).toEqual([file.id, kept.id].sort());
      expect(await findUpload(store.db, file.id)).toBeUndefined();
      expect((await runRetention(store, { now: t.clock.now(), retention, uploadFiles: uploadStore.files }, noPause)).files).toBe(1);

      expect(await rowIds()).toEqual([kept.id]);
      expect(await bytesFoundOf([file])).toEqual([]);
      expect(await bytesFoundOf([kept])).toEqual([kept.id]);
    });

    it('the retention job finishes removals left claimed, whose bytes may be gone already', async () => {
      const { token } = await atPhotos();
      const file = await uploaded(token, 51);
      // As a crash leaves it between the two moves: claimed, bytes removed, row still there.
      await store.db.updateTable('uploads').set({ state: 'removing' }).where('id', '=', file.id).execute();
      await uploadStore.files.remove(file.id);
      expect(await rowIds()).toEqual([file.id]);
      // A claimed upload is no longer anyone's: not the task's, not the export's.
      const head = await fetch(`${endpoint}/${file.id}`, { method: 'HEAD', headers: { ...bearer(token), 'tus-resumable': '1.0.0' } });
      expect(head.status).toBe(404);

      const outcome = await runRetention(store, { now: t.clock.now(), retention, uploadFiles: uploadStore.files }, noPause);

      expect(outcome.files).toBe(1);
      expect(await rowIds()).toEqual([]);
    });
  });
});
