import { randomBytes } from 'node:crypto';
import { S3 } from '@aws-sdk/client-s3';
import { addKeyPrefix, s3ClientConfigOf, type S3UploadStore } from './s3-upload-files.ts';

/**
 * The S3 calls the upload store makes (s3-upload-files.ts and @tus/s3-store 2.x): a tus creation is
 * CreateMultipartUpload and a PutObject of `<id>.info`; each PATCH reads the `.info` (GetObject), lists the parts
 * (ListParts), reads, writes or deletes the `.part` (GetObject, HeadObject, PutObject, DeleteObject), sends whole
 * parts (UploadPart) and, at the end, CompleteMultipartUpload; a removal is HeadObject, AbortMultipartUpload and
 * DeleteObjects (docs/deploying.md#uploads-with-several-instances).
 */
export const S3_STORE_CALLS = [
  'GetObject',
  'HeadObject',
  'PutObject',
  'CreateMultipartUpload',
  'UploadPart',
  'ListParts',
  'CompleteMultipartUpload',
  'AbortMultipartUpload',
  'DeleteObject',
  'DeleteObjects',
] as const;
export type S3StoreCall = (typeof S3_STORE_CALLS)[number];

/** On failure, the call that failed or answered wrong, its error, and what of the probe its clean-up left. */
export type S3ProbeResult = { ok: true } | { ok: false; call: S3StoreCall; error: unknown; leftBehind: string[] };

/** A call that answered, but not as S3 does: what it should have done is the failure's message. */
class WrongAnswer extends Error {
  override readonly name = 'UnexpectedAnswer';
}

const NOT_FOUND = new Set(['NoSuchKey', 'NotFound']);

/**
 * Makes each call of S3_STORE_CALLS on probe objects under the store's prefix, with the store's own client settings,
 * checks each answer, and removes what it made whatever happens. The first call that fails or answers wrong is the
 * result.
 */
export async function probeS3Store(settings: S3UploadStore): Promise<S3ProbeResult> {
  const client = new S3(s3ClientConfigOf(settings));
  addKeyPrefix(client, settings.prefix);
  const Bucket = settings.bucket;
  const base = `doctor-probe-${randomBytes(12).toString('base64url')}`;
  const [file, info, aborted] = [base, `${base}.info`, `${base}.aborted`];
  const body = Buffer.from(`npm run doctor: a probe of the upload store, removed at once (${base})\n`);
  const written = new Set<string>();
  const unfinished = new Map<string, string>();
  let current: S3StoreCall = 'GetObject';
  const call = <T>(name: S3StoreCall, run: () => Promise<T>): Promise<T> => {
    current = name;
    return run();
  };
  /** A read of a key that must be missing answers "not found"; found, it is `blame`'s fault (a delete that did not). */
  const missing = async (name: 'GetObject' | 'HeadObject', Key: string, blame: S3StoreCall = name) => {
    const found = await call(name, () =>
      name === 'GetObject' ? client.getObject({ Bucket, Key }) : client.headObject({ Bucket, Key }),
    ).then(
      () => true,
      (error: unknown) => {
        if (NOT_FOUND.has(nameOf(error))) return false;
        throw error;
      },
    );
    current = blame;
    if (found) throw new WrongAnswer(`${settings.prefix}${Key} is there, where no object should be`);
  };
  const readBack = async (Key: string, blame: S3StoreCall) => {
    const object = await call('GetObject', () => client.getObject({ Bucket, Key }));
    const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
    current = blame;
    if (!bytes.equals(body))
      throw new WrongAnswer(`${settings.prefix}${Key} reads back ${bytes.length} bytes, not the ${body.length} written`);
  };
  const multipart = async (Key: string) => {
    const { UploadId } = await call('CreateMultipartUpload', () => client.createMultipartUpload({ Bucket, Key }));
    if (!UploadId) throw new WrongAnswer('no UploadId in the answer');
    unfinished.set(Key, UploadId);
    const { ETag } = await call('UploadPart', () => client.uploadPart({ Bucket, Key, UploadId, PartNumber: 1, Body: body }));
    const listed = await call('ListParts', () => client.listParts({ Bucket, Key, UploadId }));
    const part = listed.Parts?.find((candidate) => candidate.PartNumber === 1);
    if (part?.Size !== body.length) throw new WrongAnswer(`the part just uploaded is not listed with its ${body.length} bytes`);
    return { UploadId, ETag };
  };

  try {
    // A key no upload has is missing (404, not 403: that takes s3:ListBucket), as the store expects of a `.part`.
    await missing('GetObject', file);
    await missing('HeadObject', file);
    await call('PutObject', () => client.putObject({ Bucket, Key: info, Body: body }));
    written.add(info);
    await readBack(info, 'PutObject');

    const upload = await multipart(file);
    written.add(file);
    await call('CompleteMultipartUpload', () =>
      client.completeMultipartUpload({
        ...{ Bucket, Key: file, UploadId: upload.UploadId },
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: upload.ETag }] },
      }),
    );
    unfinished.delete(file);
    await readBack(file, 'CompleteMultipartUpload');

    const abandoned = await multipart(aborted);
    await call('AbortMultipartUpload', () => client.abortMultipartUpload({ Bucket, Key: aborted, UploadId: abandoned.UploadId }));
    unfinished.delete(aborted);
    const gone = await client.listParts({ Bucket, Key: aborted, UploadId: abandoned.UploadId }).then(
      () => false,
      (error: unknown) => ['NoSuchUpload', 'NoSuchKey'].includes(nameOf(error)),
    );
    if (!gone) throw new WrongAnswer("the aborted upload's parts are still listed");

    await call('DeleteObject', () => client.deleteObject({ Bucket, Key: info }));
    await missing('HeadObject', info, 'DeleteObject');
    written.delete(info);
    await call('DeleteObjects', () => client.deleteObjects({ Bucket, Delete: { Objects: [{ Key: file }], Quiet: true } }));
    await missing('HeadObject', file, 'DeleteObjects');
    written.delete(file);
    return { ok: true };
  } catch (error) {
    const failed = current;
    const leftBehind = await cleanUp(client, { Bucket, prefix: settings.prefix }, written, unfinished);
    return { ok: false, call: failed, error, leftBehind };
  } finally {
    client.destroy();
  }
}

/** What a failed probe made, removed as far as the store lets it; what stays, named with the prefix. */
async function cleanUp(
  client: S3,
  where: { Bucket: string; prefix: string },
  written: Set<string>,
  unfinished: Map<string, string>,
): Promise<string[]> {
  const { Bucket, prefix } = where;
  const left: string[] = [];
  for (const [Key, UploadId] of unfinished) {
    const aborted = await client.abortMultipartUpload({ Bucket, Key, UploadId }).then(
      () => true,
      () => false,
    );
    if (!aborted) left.push(`the unfinished multipart upload of ${prefix}${Key}`);
  }
  for (const Key of written) {
    const removed = await client.deleteObject({ Bucket, Key }).then(
      () => true,
      () => false,
    );
    if (!removed) left.push(`${prefix}${Key}`);
  }
  return left;
}

/** S3's error code: the SDK's error name. */
function nameOf(error: unknown): string {
  const named = error as { name?: unknown };
  return typeof named.name === 'string' ? named.name : 'Error';
}
