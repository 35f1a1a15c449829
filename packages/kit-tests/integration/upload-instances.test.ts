import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '@partner-task-kit/server/app';
import { s3UploadFiles } from '@partner-task-kit/server/uploads/s3-upload-files';
import { startS3Server, type S3TestServer } from '../helpers/s3-server';
import { bearer, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { testWorkflows } from '../helpers/test-workflows';
import { tusMetadata, welcomePhoto, welcomePhotoRuleOf } from '../helpers/tus-uploads';

/** A field of the test's own, on the first step of the default workflow, where a new task is. */
const photoMetadata = tusMetadata({ filename: 'photo.png', filetype: 'image/png', ...welcomePhoto });

/**
 * Two instances on one database and one bucket, as compose.yaml runs them behind a proxy that may send each request of
 * a phone to either (docs/deploying.md#uploads-with-several-instances).
 */
describe.each(testDatabases)('one upload through two instances on $name', (engine) => {
  let s3: S3TestServer;
  let first: TaskApp;
  let second: FastifyInstance;
  let urls: { first: string; second: string };

  beforeEach(async () => {
    s3 = await startS3Server();
    const store = () => s3UploadFiles(s3.uploadStore('uploads/'));
    first = await openTaskApp({ engine, uploadFiles: store(), uploads: { fileRuleOf: welcomePhotoRuleOf } });
    // Postgres: a pool of its own, as another process has. SQLite: one file serves one host, and its driver is
    // synchronous, so the second app shares the first one's connection; each app still has its own tus server.
    const secondStore = engine.name === 'postgres' ? await first.database.openStore() : first.database.store;
    second = await buildApp({
      workflows: testWorkflows,
      config: first.config,
      clock: first.clock,
      store: secondStore,
      metrics: new Registry(),
      onUpdateEnqueued: () => undefined,
      taskOptions: { rateLimits: false, pageDirectory: false, uploads: { fileRuleOf: welcomePhotoRuleOf }, uploadFiles: store() },
    });
    const listen = async (app: FastifyInstance) => {
      await app.listen({ host: '127.0.0.1', port: 0 });
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/task/uploads`;
    };
    urls = { first: await listen(first.app), second: await listen(second) };
  });
  afterEach(async () => {
    await second.close();
    await first.close();
    await s3.close();
  });

  it('makes the instance still reading a stalled PATCH keep what it got and let go, before the other answers', async () => {
    const session = await openSession(first.app);
    const photo = await sharp({
      create: { width: 320, height: 320, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .png()
      .toBuffer();
    const tus = { ...bearer(session.token), 'tus-resumable': '1.0.0' };
    const created = await fetch(urls.first, {
      method: 'POST',
      headers: { ...tus, 'upload-length': String(photo.length), 'upload-metadata': photoMetadata },
    });
    expect(created.status).toBe(201);
    const id = created.headers.get('location')!.split('/').pop()!;

    // The phone sends a third of the file to the first instance, then its signal goes: the request stays open.
    const sentFirst = Math.floor(photo.length / 3);
    const cutOff = new AbortController();
    const stalled = fetch(`${urls.first}/${id}`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new ReadableStream({ start: (sending) => sending.enqueue(photo.subarray(0, sentFirst)) }),
      duplex: 'half',
      signal: cutOff.signal,
    } as RequestInit).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    // Its retry reaches the second instance. Nothing of those bytes is in the bucket yet: they are still the first
    // instance's. The HEAD waits for the first to let go, and then tells where the upload really is.
    const head = await fetch(`${urls.second}/${id}`, { method: 'HEAD', headers: tus });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('upload-offset'))).toBe(sentFirst);

    const rest = await fetch(`${urls.second}/${id}`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': String(sentFirst), 'content-type': 'application/offset+octet-stream' },
      body: photo.subarray(sentFirst),
    });
    expect(rest.status).toBe(204);
    cutOff.abort();
    await stalled;

    // Whole and in order: the cleaned PNG holds exactly the pixels sent.
    const stored = await buffer((await first.uploadFiles.open(id))!);
    const pixels = (image: Buffer) => sharp(image).raw().toBuffer();
    expect((await pixels(stored)).equals(await pixels(photo))).toBe(true);
    expect(await s3.listKeys()).toEqual([`uploads/${id}`, `uploads/${id}.info`]);
  });
});
