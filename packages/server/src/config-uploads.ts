import { dirname, join } from 'node:path';
import { type ConfigFindings, describeValue, isPlainHttpBeyondLoopback } from './config-checks.ts';
import type { Environment } from './config-environment.ts';
import type { CleaningPoolSettings } from './uploads/cleaning-pool.ts';
import type { S3UploadStore } from './uploads/s3-upload-files.ts';

/** Where uploads' bytes are kept (docs/configuration.md#uploads): a directory of this machine, or a bucket. */
export type UploadStoreConfig = { kind: 'file'; directory: string } | ({ kind: 's3' } & S3UploadStore);

export interface UploadsConfig {
  store: UploadStoreConfig;
  /** What a task may hold: files, and their declared bytes in all (docs/configuration.md#uploads). */
  maxFilesPerTask: number;
  maxBytesPerTask: number;
  /**
   * UPLOAD_CLEANING_PROCESSES, UPLOAD_CLEANING_MEMORY_MB and UPLOAD_CLEANING_TIMEOUT_MS: files decoded at once, the
   * memory their decodings may hold together, and each one's deadline.
   */
  cleaning: CleaningPoolSettings;
}

const DEFAULT_MAX_FILES_PER_TASK = 20;
const DEFAULT_MAX_BYTES_PER_TASK = 100 * 1024 * 1024;

/** S3's bucket names: 3 to 63 lower-case letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_ONLY = ['S3_ENDPOINT', 'S3_REGION', 'S3_FORCE_PATH_STYLE'] as const;

/**
 * UPLOAD_STORE: `file:<dir>`, or `s3://<bucket>/<prefix>` with S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and the AWS
 * credential variables. Unset: `uploads/` beside the SQLite file, `./data/uploads` with Postgres (a directory serves
 * one instance only: docs/deploying.md#uploads-with-several-instances).
 */
export function uploadsOf(e: Environment, { problems, warnings }: ConfigFindings): UploadsConfig {
  const limits = {
    maxFilesPerTask: renamed(e, 'UPLOAD_MAX_FILES_PER_TASK', 'UPLOAD_MAX_FILES_PER_ATTEMPT', warnings) ?? DEFAULT_MAX_FILES_PER_TASK,
    maxBytesPerTask: renamed(e, 'UPLOAD_MAX_BYTES_PER_TASK', 'UPLOAD_MAX_BYTES_PER_ATTEMPT', warnings) ?? DEFAULT_MAX_BYTES_PER_TASK,
    cleaning: {
      processes: e.UPLOAD_CLEANING_PROCESSES,
      memoryBytes: e.UPLOAD_CLEANING_MEMORY_MB * 1024 * 1024,
      timeoutMs: e.UPLOAD_CLEANING_TIMEOUT_MS,
    },
  };
  const value = e.UPLOAD_STORE;
  if (value === undefined || value.startsWith('file:')) {
    for (const name of S3_ONLY) {
      if (e[name] !== undefined) {
        problems.push(
          `${name}: expected nothing unless UPLOAD_STORE is s3://<bucket>/<prefix> (uploads go to a directory), got ${describeValue(name, e[name])}`,
        );
      }
    }
    const directory = value === undefined ? defaultDirectory(e.DATABASE_URL) : value.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    if (directory.trim() === '')
      problems.push(`UPLOAD_STORE: expected file:<directory> with a directory, got ${describeValue('UPLOAD_STORE', value)}`);
    return { store: { kind: 'file', directory }, ...limits };
  }
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(value);
  const bucket = match?.[1] ?? '';
  if (!match || !BUCKET_NAME.test(bucket) || bucket.includes('..')) {
    problems.push(
      `UPLOAD_STORE: expected file:<directory> or s3://<bucket>/<prefix> (a bucket of 3 to 63 lower-case letters, digits, dots and hyphens), got ${describeValue('UPLOAD_STORE', value)}`,
    );
  }
  const path = (match?.[2] ?? '').replace(/^\/+|\/+$/g, '');
  const region = e.S3_REGION ?? e.AWS_REGION;
  // Another scheme is one mistake, said once: not also the region an s3:// store would need.
  if (region === undefined && value.startsWith('s3://')) {
    problems.push(
      "S3_REGION: expected the bucket's region when UPLOAD_STORE is s3:// (e.g. eu-west-1; auto for Cloudflare R2; us-east-1 for MinIO), got nothing",
    );
  }
  if (e.S3_ENDPOINT !== undefined && isPlainHttpBeyondLoopback(e.S3_ENDPOINT)) {
    warnings.push(`S3_ENDPOINT is plain HTTP to ${new URL(e.S3_ENDPOINT).host}: uploaded files cross the network unencrypted`);
  }
  return {
    store: {
      kind: 's3',
      bucket,
      prefix: path === '' ? '' : `${path}/`,
      ...(e.S3_ENDPOINT !== undefined ? { endpoint: e.S3_ENDPOINT.replace(/\/+$/, '') } : {}),
      region: region ?? '',
      forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
      ...credentialsOf(e, problems),
    },
    ...limits,
  };
}

/**
 * A limit under its name, or else under the name it had in earlier releases (docs/configuration.md#uploads), with a
 * warning at start: a `.env` written for one keeps its meaning, and its operator learns the new name.
 */
function renamed(
  e: Environment,
  name: 'UPLOAD_MAX_FILES_PER_TASK' | 'UPLOAD_MAX_BYTES_PER_TASK',
  oldName: 'UPLOAD_MAX_FILES_PER_ATTEMPT' | 'UPLOAD_MAX_BYTES_PER_ATTEMPT',
  warnings: string[],
): number | undefined {
  if (e[oldName] === undefined) return e[name];
  if (e[name] !== undefined) {
    warnings.push(`${oldName} is ignored: ${name}, its new name, is set too; remove ${oldName}`);
    return e[name];
  }
  warnings.push(`${oldName} is now named ${name} (it bounds what a task holds): its value is used; rename it`);
  return e[oldName];
}

/**
 * The AWS variables, read here as every variable is (so a `.env` file's reach the store too); none set leaves the
 * credential to the AWS SDK's own chain: a shared profile, a container's or an instance's role.
 */
function credentialsOf(e: Environment, problems: string[]): Pick<S3UploadStore, 'credentials'> {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = e;
  if (accessKeyId === undefined && secretAccessKey === undefined) {
    if (sessionToken !== undefined)
      problems.push('AWS_SESSION_TOKEN: expected only with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, got them unset');
    return {};
  }
  if (accessKeyId === undefined || secretAccessKey === undefined) {
    const missing = accessKeyId === undefined ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY';
    const other = accessKeyId === undefined ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID';
    problems.push(`${missing}: expected it with ${other} (an access key is both), got nothing`);
    return {};
  }
  return { credentials: { accessKeyId, secretAccessKey, ...(sessionToken !== undefined ? { sessionToken } : {}) } };
}

/** Beside the SQLite file, as the sensitive-data key is; `./data/uploads` with Postgres or a database in memory. */
function defaultDirectory(databaseUrl: string): string {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return './data/uploads';
  const filename = databaseUrl.replace(/^(sqlite|file):(\/\/)?/, '');
  return filename === ':memory:' || filename === '' ? './data/uploads' : join(dirname(filename), 'uploads');
}
