import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { UploadStoreConfig } from '../config-uploads.ts';
import { probeS3Store, S3_STORE_CALLS, type S3StoreCall } from '../uploads/s3-store-probe.ts';
import type { CheckResult } from './doctor-checks.ts';

const NAME = 'upload store';
const DEPLOYING = 'docs/deploying.md#uploads-with-several-instances';

/**
 * Whether the server could keep uploads where UPLOAD_STORE says (docs/configuration.md#uploads): a directory must be
 * writable (or its parent, where the server makes it at the first upload), without writing; a bucket must answer each
 * S3 call the store makes (docs/deploying.md#uploads-with-several-instances), tried on probe objects under the prefix
 * that are removed at once. A store that lacks one (s3rver has no ListParts) would fail every upload's PATCH.
 */
export async function checkUploadStore(store: UploadStoreConfig): Promise<CheckResult> {
  if (store.kind === 'file') return checkDirectory(resolve(store.directory));
  const where = `bucket ${store.bucket}${store.prefix ? `, keys under ${store.prefix}` : ''}${store.endpoint ? `, at ${new URL(store.endpoint).host}` : ''}`;
  const probe = await probeS3Store(store);
  if (probe.ok) {
    return { name: NAME, ok: true, summary: `${where} answers ${S3_STORE_CALLS.join(', ')}, on probe objects removed since` };
  }
  const code = errorName(probe.error);
  const left = probe.leftBehind.length > 0 ? `; left behind: ${probe.leftBehind.join(', ')}` : '';
  return {
    name: NAME,
    ok: false,
    summary: `${where}: ${probe.call}: ${code}: ${errorMessage(probe.error).replace(/\.$/, '')}${left}`,
    nextStep: nextStepFor(code, probe.call),
  };
}

async function checkDirectory(directory: string): Promise<CheckResult> {
  if (await writable(directory)) return { name: NAME, ok: true, summary: `the directory ${directory} is writable` };
  // The server makes the directory with its missing parents (recursive mkdir): the nearest that exists must be writable.
  let nearest = dirname(directory);
  while (!(await exists(nearest)) && dirname(nearest) !== nearest) nearest = dirname(nearest);
  if (await writable(nearest)) {
    return { name: NAME, ok: true, summary: `the directory ${directory} does not exist yet: the server makes it at the first upload` };
  }
  return {
    name: NAME,
    ok: false,
    summary: `the directory ${directory} cannot be written, nor made`,
    nextStep: 'Give this user write access to it, or set UPLOAD_STORE to file:<a writable directory> or s3://<bucket>/<prefix>.',
  };
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function writable(path: string): Promise<boolean> {
  return access(path, constants.W_OK).then(
    () => true,
    () => false,
  );
}

function errorName(error: unknown): string {
  const named = error as { name?: unknown; code?: unknown };
  return typeof named.code === 'string' ? named.code : typeof named.name === 'string' ? named.name : 'Error';
}

/** The SDK's message: S3's own sentence, which names no credential; a network failure's, which names the address. */
function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The IAM action each call needs on AWS (docs/deploying.md#uploads-with-several-instances). */
const PERMISSION: Record<S3StoreCall, string> = {
  // A read of a missing key answers 403 instead of 404 without s3:ListBucket.
  GetObject: 's3:GetObject and s3:ListBucket',
  HeadObject: 's3:GetObject and s3:ListBucket',
  PutObject: 's3:PutObject',
  CreateMultipartUpload: 's3:PutObject',
  UploadPart: 's3:PutObject',
  CompleteMultipartUpload: 's3:PutObject',
  ListParts: 's3:ListMultipartUploadParts',
  AbortMultipartUpload: 's3:AbortMultipartUpload',
  DeleteObject: 's3:DeleteObject',
  DeleteObjects: 's3:DeleteObject',
};

function nextStepFor(code: string, call: S3StoreCall): string {
  if (code === 'NoSuchBucket') return 'Create the bucket, or correct the bucket in UPLOAD_STORE.';
  if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'CredentialsProviderError', 'AuthorizationHeaderMalformed'].includes(code)) {
    return 'Correct AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or the role the server runs with), and S3_REGION.';
  }
  if (code === 'AccessDenied') return `Give the credential ${PERMISSION[call]} on the prefix (${DEPLOYING}).`;
  if (code === 'PermanentRedirect') return "Set S3_REGION to the bucket's region.";
  if (['MethodNotAllowed', 'NotImplemented', 'UnexpectedAnswer'].includes(code)) {
    return `This store does not do ${call} as S3 does, and the upload store needs it: use one that does (${DEPLOYING}).`;
  }
  return 'Check S3_ENDPOINT, S3_REGION and S3_FORCE_PATH_STYLE, and that the store is reachable from here.';
}
