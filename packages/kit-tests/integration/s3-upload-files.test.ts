import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { Upload } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3UploadFiles } from '@partner-task-kit/server/uploads/s3-upload-files';
import { startS3Server, type S3TestServer } from '../helpers/s3-server';

describe('uploads in an S3-compatible bucket (s3rver on loopback)', () => {
  let s3: S3TestServer;
  let scratch: string;
  beforeAll(async () => {
    s3 = await startS3Server();
    scratch = await mkdtemp(join(tmpdir(), 'ptk-s3-files-'));
  });
  afterAll(async () => {
    await s3.close();
    await rm(scratch, { recursive: true, force: true });
  });

  const newId = () => randomBytes(16).toString('base64url');

  /** What tus does for an upload: creates it, then writes `bytes` from offset 0. */
  async function storeThroughTus(files: ReturnType<typeof s3UploadFiles>, id: string, size: number, bytes: Buffer) {
    const store = await files.datastore();
    await store.create(new Upload({ id, size, offset: 0 }));
    return store.write(Readable.from([bytes]), id, 0);
  }

  it('keeps every object under the prefix, and removes all of an upload: the file, its .info and its .part', async () => {
    const files = s3UploadFiles(s3.uploadStore('tenant-a/uploads/'));
    const finished = newId();
    const unfinished = newId();
    expect(await storeThroughTus(files, finished, 5, Buffer.from('hello'))).toBe(5);
    // Shorter than S3's smallest part and not the end: kept as `<id>.part` until more comes.
    expect(await storeThroughTus(files, unfinished, 100, Buffer.from('first forty bytes of a hundred..........'))).toBe(40);

    expect(await s3.listKeys()).toEqual(
      [
        `tenant-a/uploads/${finished}`,
        `tenant-a/uploads/${finished}.info`,
        `tenant-a/uploads/${unfinished}.info`,
        `tenant-a/uploads/${unfinished}.part`,
      ].sort(),
    );
    const store = await files.datastore();
    expect(await store.getUpload(unfinished)).toMatchObject({ offset: 40, size: 100 });
    expect(await text((await files.open(finished))!)).toBe('hello');

    expect(await files.remove(unfinished)).toBe(true);
    expect(await files.remove(finished)).toBe(true);
    expect(await s3.listKeys('tenant-a/')).toEqual([]);
    expect(await files.remove(finished)).toBe(false);
    expect(await files.open(finished)).toBeUndefined();
  });

  it('hands a local copy that is gone afterwards, and puts a cleaned file in place of the received one', async () => {
    const files = s3UploadFiles(s3.uploadStore(''));
    const id = newId();
    const received = randomBytes(200_000);
    await storeThroughTus(files, id, received.length, received);

    let copy = '';
    const read = await files.withLocalCopy(id, async (path) => {
      copy = path;
      return readFileSync(path);
    });
    expect(read.equals(received)).toBe(true);
    expect(existsSync(copy)).toBe(false);

    const cleaned = join(scratch, 'cleaned');
    writeFileSync(cleaned, 'cleaned bytes');
    await files.replace(id, cleaned);
    expect((await s3.getObject(id))?.toString()).toBe('cleaned bytes');
    await expect(files.withLocalCopy(newId(), async () => 'never')).rejects.toThrow(/no stored bytes/);
    expect(await files.remove(id)).toBe(true);
    expect(await s3.listKeys()).toEqual([]);
  });
});
