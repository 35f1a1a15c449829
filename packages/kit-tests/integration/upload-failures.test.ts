import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@partner-task-kit/server/logger';
import type { UploadFiles } from '@partner-task-kit/server/uploads/upload-files';
import { bearer, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';

/** A field of the test's own, on the first step of the default workflow, where a new task is. */
import { rawRequest } from '../helpers/raw-upload-requests';
import { TUS_HEADERS, tusMetadata, welcomePhoto, welcomePhotoRuleOf } from '../helpers/tus-uploads';

/* A 5xx of the upload path: the contract's JSON answer without its cause, which the log carries (docs/operations.md#logs). */

describe.each(testDatabases)('upload failures of the server on $name', (engine) => {
  let t: TaskApp;
  let directory: string;
  const lines: Record<string, unknown>[] = [];

  /** A directory store whose every write of bytes fails, as a full disk or an S3 without a call it needs would. */
  function failingFiles(directory: string): UploadFiles {
    class FailingFileStore extends FileStore {
      override write(): Promise<number> {
        return Promise.reject(new Error('the disk is full (probe 5e1f)'));
      }
    }
    const store = new FailingFileStore({ directory });
    return {
      kind: 'file',
      datastore: async () => store,
      withLocalCopy: () => Promise.reject(new Error('not used')),
      replace: () => Promise.reject(new Error('not used')),
      open: async () => undefined,
      remove: async () => false,
    };
  }

  beforeEach(async () => {
    lines.length = 0;
    const collect = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    directory = mkdtempSync(join(tmpdir(), 'ptk-failing-uploads-'));
    t = await openTaskApp({
      engine,
      uploadFiles: failingFiles(directory),
      uploads: { fileRuleOf: welcomePhotoRuleOf },
      log: createLogger('info', collect),
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await t.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('answers a failing store with a JSON 500, logs it with its cause, and names the upload in every line', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    const session = await openSession(t.app);
    const created = await rawRequest(port, 'POST', '/api/task/uploads', {
      ...bearer(session.token),
      ...TUS_HEADERS,
      'upload-length': '100',
      'upload-metadata': tusMetadata(welcomePhoto),
    });
    expect(created.status).toBe(201);
    const id = String(created.headers.location).split('/').pop()!;
    const patch = await rawRequest(
      port,
      'PATCH',
      `/api/task/uploads/${id}`,
      { ...bearer(session.token), ...TUS_HEADERS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      Buffer.alloc(100, 1),
    );
    expect(patch.status).toBe(500);
    expect(patch.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(patch.body)).toMatchObject({ error: { code: 'internal_error' } });
    expect(patch.body).not.toContain('disk is full');
    const uploadLines = () =>
      lines.filter((line) => line.msg === 'request completed' && (line.req as { url?: string }).url?.startsWith('/api/task/uploads'));
    await expect.poll(() => uploadLines().length).toBe(2);
    const failure = lines.find((line) => line.level === 50);
    expect(failure).toMatchObject({ uploadId: id, err: { message: expect.stringContaining('the disk is full (probe 5e1f)') } });
    expect(uploadLines().map((line) => line.uploadId)).toEqual([id, id]);
  });
});
