import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { UploadStoreConfig } from '../config-uploads.ts';
import type { UploadFiles } from '../uploads/upload-files.ts';
import type { CheckResult } from './doctor-checks.ts';

const NAME = 'upload store';

/**
 * Whether the server could keep uploads where UPLOAD_STORE says (docs/configuration.md#uploads), without writing: a
 * directory must be writable (or its parent, where the server makes it at the first upload); a bucket must answer a
 * read of a key no upload has with "no such key", which takes the endpoint, the region, the credential, the bucket
 * and the permission to list it (docs/deploying.md#uploads-with-several-instances).
 */
export async function checkUploadStore(store: UploadStoreConfig, files: UploadFiles): Promise<CheckResult> {
  if (store.kind === 'file') return checkDirectory(resolve(store.directory));
  const where = `bucket ${store.bucket}${store.prefix ? `, keys under ${store.prefix}` : ''}${store.endpoint ? `, at ${new URL(store.endpoint).host}` : ''}`;
  try {
    const found = await files.open(`doctor-${randomBytes(16).toString('base64url')}`);
    found?.destroy();
    return { name: NAME, ok: true, summary: `${where} answers: a key no upload has is missing, as it should be` };
  } catch (error) {
    const code = errorName(error);
    return { name: NAME, ok: false, summary: `${where}: ${code}: ${errorMessage(error)}`, nextStep: nextStepFor(code) };
  }
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

function nextStepFor(code: string): string {
  if (code === 'NoSuchBucket') return 'Create the bucket, or correct the bucket in UPLOAD_STORE.';
  if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'CredentialsProviderError', 'AuthorizationHeaderMalformed'].includes(code)) {
    return 'Correct AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or the role the server runs with), and S3_REGION.';
  }
  if (code === 'AccessDenied')
    return 'Give the credential the permissions of docs/deploying.md#uploads-with-several-instances, s3:ListBucket included.';
  if (code === 'PermanentRedirect') return "Set S3_REGION to the bucket's region.";
  return 'Check S3_ENDPOINT, S3_REGION and S3_FORCE_PATH_STYLE, and that the store is reachable from here.';
}
