import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { S3Store, type MetadataValue } from '@tus/s3-store';
import { ERRORS, type KvStore } from '@tus/server';
import type { UploadFiles } from './upload-files.ts';

/** A bucket of an S3-compatible store and the prefix of the keys kept there (docs/configuration.md#uploads). */
export interface S3UploadStore {
  bucket: string;
  /** '' or a path ending in `/`: every key written starts with it. */
  prefix: string;
  /** S3_ENDPOINT: another S3-compatible service (R2, MinIO...); undefined for AWS S3. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** From the configuration's AWS_* variables; undefined leaves them to the AWS SDK's default chain (roles, profiles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** @tus/s3-store's preferred part size, and S3's 5 MiB minimum with room. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * Uploads in a bucket, written by @tus/s3-store as a multipart upload per file. For each upload id it keeps `<id>`
 * (the file), `<id>.info` (tus's record) and, while a received piece is shorter than S3's smallest part, `<id>.part`.
 */
export function s3UploadFiles(settings: S3UploadStore): UploadFiles {
  const store = new UploadS3Store(settings);
  return {
    kind: 's3',
    datastore: async () => store,
    async withLocalCopy(id, use) {
      const directory = await mkdtemp(join(tmpdir(), 'ptk-s3-copy-'));
      try {
        const body = await store.openObject(id);
        if (!body) throw new Error(`upload ${id} has no stored bytes`);
        const path = join(directory, 'received');
        await pipeline(body, createWriteStream(path, { mode: 0o600 }));
        return await use(path);
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
    replace: (id, path) => store.putObject(id, path),
    open: (id) => store.openObject(id),
    remove: (id) => store.removeAll(id),
  };
}

/**
 * tus's S3 store with what it lacks here: keys under a prefix, a removal that also takes `.part` objects and completed
 * uploads, and the reads and writes of a stored file.
 */
class UploadS3Store extends S3Store {
  private readonly prefix: string;

  constructor(settings: S3UploadStore) {
    const clientConfig = { bucket: settings.bucket, ...s3ClientConfigOf(settings) };
    // tus keeps what it read of an upload's `.info` (which never changes once written: Upload-Length is required, so
    // no deferred length rewrites it) per process; bounded, as uploads finished by another instance never leave it.
    // Every part but the last of the same size: Cloudflare R2 refuses a multipart upload whose parts differ, and a
    // piece that ends a PATCH short of a part waits as `<id>.part` for the next (docs/deploying.md#uploads-with-several-instances).
    super({ s3ClientConfig: clientConfig, cache: boundedCache<MetadataValue>(1000), partSize: PART_BYTES, minPartSize: PART_BYTES });
    this.prefix = settings.prefix;
    addKeyPrefix(this.client, this.prefix);
  }

  async openObject(id: string): Promise<Readable | undefined> {
    try {
      const object = await this.client.getObject({ Bucket: this.bucket, Key: id });
      return object.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async putObject(id: string, path: string): Promise<void> {
    const { size } = await stat(path);
    await this.client.putObject({ Bucket: this.bucket, Key: id, Body: createReadStream(path), ContentLength: size });
  }

  /** tus's termination (DELETE) ends here too: an unknown upload is its 404. */
  override async remove(id: string): Promise<void> {
    if (!(await this.removeAll(id))) throw ERRORS.FILE_NOT_FOUND;
  }

  async removeAll(id: string): Promise<boolean> {
    const info = await this.client.headObject({ Bucket: this.bucket, Key: this.infoKey(id) }).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    const uploadId = info?.Metadata?.['upload-id'];
    if (uploadId) {
      // A completed upload's multipart upload is gone already: S3 answers NoSuchUpload.
      await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: uploadId }).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    }
    const file = info ? undefined : await this.client.headObject({ Bucket: this.bucket, Key: id }).catch(() => undefined);
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }], Quiet: true },
    });
    await this.clearCache(id);
    return info !== undefined || file !== undefined;
  }
}

/** The S3 client's settings for the store, shared by the doctor's probe (cli/doctor-upload-store.ts). */
export function s3ClientConfigOf(settings: S3UploadStore): S3ClientConfig {
  return {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // The SDK's default since 3.729 sends a streamed body with a CRC trailer (aws-chunked), which S3-compatible
    // services that predate it store as it came, framing included: checksums only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  };
}

/** @tus/s3-store names every object by the upload id alone: the prefix is added to each request's keys, in one place. */
export function addKeyPrefix(client: S3Client, prefix: string): void {
  if (prefix === '') return;
  client.middlewareStack.add((next) => (args) => next({ ...args, input: withPrefix(args.input, prefix) }), {
    step: 'initialize',
    name: 'uploadKeyPrefix',
  });
}

function withPrefix(input: object, prefix: string): object {
  const request = input as { Key?: unknown; Delete?: { Objects?: { Key?: string }[] } };
  if (typeof request.Key === 'string') return { ...request, Key: prefix + request.Key };
  if (request.Delete?.Objects) {
    return {
      ...request,
      Delete: { ...request.Delete, Objects: request.Delete.Objects.map((object) => ({ ...object, Key: prefix + object.Key })) },
    };
  }
  return input;
}

const MISSING = new Set(['NoSuchKey', 'NoSuchUpload', 'NotFound']);
function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'name' in error && MISSING.has(String(error.name));
}

/** At most `limit` entries; the least recently used goes first. */
function boundedCache<T>(limit: number): KvStore<T> {
  const entries = new Map<string, T>();
  return {
    async get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    async set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > limit) entries.delete(entries.keys().next().value!);
    },
    async delete(key) {
      entries.delete(key);
    },
  };
}
