/**
 * A real S3-compatible server on loopback for tests: s3rver (npm), which speaks S3's REST protocol over HTTP and keeps
 * objects in a temporary directory. It knows one access key id (below) and refuses any other; it does not verify SigV4
 * signatures, so a wrong secret goes unnoticed.
 *
 *   const s3 = await startS3Server();          // one bucket, `s3.bucket`, at `s3.endpoint` (http://127.0.0.1:<port>)
 *   directly: s3.client (an S3Client signed for it, path-style), s3.listKeys(prefix?), s3.getObject(key)
 *   the app:  s3UploadFiles(s3.uploadStore('some/prefix'))              (packages/server/src/uploads/s3-upload-files.ts)
 *   a server process: { ...process.env, ...s3.environment('some/prefix') }  (UPLOAD_STORE, S3_* and AWS_* variables)
 *   await s3.close();                           // stops it and removes its directory
 *
 * s3rver 3.7 lacks two calls of S3's multipart uploads that @tus/s3-store makes: ListParts (how much of an upload
 * is stored) and AbortMultipartUpload; it answers both `405 MethodNotAllowed`. They are answered here, before
 * s3rver's own routes, from the parts s3rver keeps on disk, as S3 documents them (ListParts, AbortMultipartUpload in
 * the S3 API reference). Everything else is s3rver's. `startS3Server({ without: ['ListParts'] })` leaves one out, for
 * a store that lacks it.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { S3UploadStore } from '@partner-task-kit/server/uploads/s3-upload-files';

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`: S3_ENDPOINT. */
  endpoint: string;
  bucket: string;
  region: string;
  /** s3rver's fixed credential: a request with another access key id is refused (InvalidAccessKeyId). */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** An S3 client for this server (path-style addressing, its credential). */
  client: S3Client;
  /** The store's settings for `s3UploadFiles`, keys under `prefix` (`a/b` or `a/b/`) in this server's bucket. */
  uploadStore(prefix?: string): S3UploadStore;
  /** The variables that point a server process at this bucket (docs/configuration.md#uploads). */
  environment(prefix?: string): Record<string, string>;
  /** Every key in the bucket under `prefix`, sorted. */
  listKeys(prefix?: string): Promise<string[]>;
  /** How many multipart uploads are neither completed nor aborted (s3rver keeps each in a directory of its own). */
  unfinishedUploads(): Promise<number>;
  /** An object's bytes, or undefined when there is no such key. */
  getObject(key: string): Promise<Buffer | undefined>;
  close(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const REGION = 'us-east-1';

/** The calls of S3 this helper adds to s3rver's. */
export type AddedS3Call = 'ListParts' | 'AbortMultipartUpload';

export async function startS3Server(options: { bucket?: string; without?: AddedS3Call[] } = {}): Promise<S3TestServer> {
  const bucket = options.bucket ?? 'ptk-test-uploads';
  const directory = await mkdtemp(join(tmpdir(), 'ptk-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  server.middleware.unshift(multipartCompletion(options.without ?? []));
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  // Checksums only where S3 requires them, as the app's client (s3-upload-files.ts): s3rver predates aws-chunked bodies.
  const client = new S3Client({
    endpoint,
    region: REGION,
    forcePathStyle: true,
    credentials: CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const uploadStore = (prefix = ''): S3UploadStore => ({
    bucket,
    prefix: asKeyPrefix(prefix),
    endpoint,
    region: REGION,
    forcePathStyle: true,
    credentials: CREDENTIALS,
  });
  return {
    endpoint,
    bucket,
    region: REGION,
    credentials: CREDENTIALS,
    client,
    uploadStore,
    environment: (prefix = '') => ({
      UPLOAD_STORE: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: REGION,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    }),
    async listKeys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    async unfinishedUploads() {
      const uploads = server.store.getResourcePath(bucket, undefined, 'uploads');
      return (await readdir(uploads).catch(() => [])).length;
    },
    async getObject(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await object.Body!.transformToByteArray());
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

// s3rver has no type declarations: what this file uses of it.
interface S3rverOptions {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}
interface S3rverInstance {
  /** Koa's middleware, composed when the server starts listening. */
  middleware: KoaMiddleware[];
  store: FilesystemStore;
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
interface FilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
}
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  store: FilesystemStore;
  status: number;
  type: string;
  body: unknown;
}
type KoaMiddleware = (context: KoaContext, next: () => Promise<void>) => Promise<void>;

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (options: S3rverOptions) => S3rverInstance;
const S3Error = require('s3rver/lib/models/error') as new (code: string, message: string) => Error;

/**
 * ListParts and AbortMultipartUpload (but those in `without`), on the directory where s3rver keeps an unfinished
 * multipart upload's parts.
 */
const multipartCompletion = (without: AddedS3Call[]): KoaMiddleware => {
  const methods = [...(without.includes('ListParts') ? [] : ['GET']), ...(without.includes('AbortMultipartUpload') ? [] : ['DELETE'])];
  return async (context, next) => {
    const uploadId = context.query.uploadId;
    const route = /^\/([^/]+)\/(.+)$/.exec(context.path);
    if (typeof uploadId !== 'string' || !route || !methods.includes(context.method)) return next();
    await answerMultipart(context, uploadId, route[1]!, route[2]!);
  };
};

async function answerMultipart(context: KoaContext, uploadId: string, bucket: string, key: string): Promise<void> {
  const uploadDirectory = join(context.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
  // s3rver writes the upload's key beside its parts; a completed or aborted upload's directory is gone.
  const storedKey = await readFile(join(uploadDirectory, 'key'), 'utf8').catch(() => undefined);
  if (storedKey !== decodeURIComponent(key)) {
    throw new S3Error(
      'NoSuchUpload',
      'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
    );
  }
  if (context.method === 'DELETE') {
    await rm(uploadDirectory, { recursive: true, force: true });
    context.status = 204;
    return;
  }
  const numbers = (await readdir(uploadDirectory))
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
  const parts = await Promise.all(
    numbers.map(async (number) => {
      const path = join(uploadDirectory, String(number));
      const [about, md5] = await Promise.all([stat(path), readFile(`${path}.md5`, 'utf8')]);
      return (
        `<Part><PartNumber>${number}</PartNumber><LastModified>${about.mtime.toISOString()}</LastModified>` +
        `<ETag>"${md5}"</ETag><Size>${about.size}</Size></Part>`
      );
    }),
  );
  context.type = 'application/xml';
  context.body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
    `<Bucket>${bucket}</Bucket><Key>${escapeXml(storedKey)}</Key><UploadId>${uploadId}</UploadId>` +
    `<IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
}

/** As UPLOAD_STORE's path is read (config-uploads.ts): `a/b` and `a/b/` are the same prefix, `a/b/`. */
function asKeyPrefix(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}
