import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseConfig, type ConfigResult } from '@partner-task-kit/server/config';

const configProblems = (result: ConfigResult) => (result.ok ? [] : result.problems);

describe('uploads configuration', () => {
  it('keeps files beside the SQLite file by default, in ./data/uploads with Postgres, with 20 files and 100 MB a task', () => {
    expect(parseConfig({ DATABASE_URL: 'sqlite:/var/lib/ptk/tasks.db' })).toMatchObject({
      ok: true,
      config: {
        uploads: { store: { kind: 'file', directory: '/var/lib/ptk/uploads' }, maxFilesPerTask: 20, maxBytesPerTask: 104_857_600 },
        warnings: [],
      },
    });
    expect(parseConfig({ DATABASE_URL: 'postgres://u@db/app' })).toMatchObject({
      ok: true,
      config: { uploads: { store: { kind: 'file', directory: './data/uploads' } } },
    });
    expect(
      parseConfig({ UPLOAD_STORE: 'file:/srv/uploads', UPLOAD_MAX_FILES_PER_TASK: '4', UPLOAD_MAX_BYTES_PER_TASK: '5000000' }),
    ).toMatchObject({
      ok: true,
      config: {
        uploads: { store: { kind: 'file', directory: '/srv/uploads' }, maxFilesPerTask: 4, maxBytesPerTask: 5_000_000 },
        warnings: [],
      },
    });
  });

  it('still reads the limits under their earlier names, _PER_ATTEMPT, and says to rename them', () => {
    expect(parseConfig({ UPLOAD_MAX_FILES_PER_ATTEMPT: '4', UPLOAD_MAX_BYTES_PER_ATTEMPT: '5000000' })).toMatchObject({
      ok: true,
      config: {
        uploads: { maxFilesPerTask: 4, maxBytesPerTask: 5_000_000 },
        warnings: [
          'UPLOAD_MAX_FILES_PER_ATTEMPT is now named UPLOAD_MAX_FILES_PER_TASK (it bounds what a task holds): its value is used; rename it',
          'UPLOAD_MAX_BYTES_PER_ATTEMPT is now named UPLOAD_MAX_BYTES_PER_TASK (it bounds what a task holds): its value is used; rename it',
        ],
      },
    });
    // Both names: the new one wins, and the old one is said to be ignored.
    expect(parseConfig({ UPLOAD_MAX_FILES_PER_ATTEMPT: '4', UPLOAD_MAX_FILES_PER_TASK: '6' })).toMatchObject({
      ok: true,
      config: {
        uploads: { maxFilesPerTask: 6, maxBytesPerTask: 104_857_600 },
        warnings: [
          'UPLOAD_MAX_FILES_PER_ATTEMPT is ignored: UPLOAD_MAX_FILES_PER_TASK, its new name, is set too; remove UPLOAD_MAX_FILES_PER_ATTEMPT',
        ],
      },
    });
  });

  it('reads a bucket, its prefix, an endpoint, a region, path-style addressing and an access key', () => {
    const result = parseConfig({
      UPLOAD_STORE: 's3://ptk-files/prod/uploads/',
      S3_ENDPOINT: 'https://abc123.r2.cloudflarestorage.com/',
      S3_REGION: 'auto',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    });
    expect(result).toMatchObject({
      ok: true,
      config: {
        uploads: {
          store: {
            kind: 's3',
            bucket: 'ptk-files',
            prefix: 'prod/uploads/',
            endpoint: 'https://abc123.r2.cloudflarestorage.com',
            region: 'auto',
            forcePathStyle: true,
            credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
          },
        },
      },
    });
  });

  it('leaves AWS S3 and its credential chain to the SDK when only the bucket and AWS_REGION are given', () => {
    const result = parseConfig({ UPLOAD_STORE: 's3://ptk-files', AWS_REGION: 'eu-west-1' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.uploads.store).toEqual({
      kind: 's3',
      bucket: 'ptk-files',
      prefix: '',
      region: 'eu-west-1',
      forcePathStyle: false,
    });
    expect(result.config.warnings).toEqual([]);
  });

  it('stops the start on a bad store, a missing region, half an access key or S3 variables without a bucket', () => {
    expect(configProblems(parseConfig({ UPLOAD_STORE: 'gs://files' }))).toEqual([
      'UPLOAD_STORE: expected file:<directory> or s3://<bucket>/<prefix> (a bucket of 3 to 63 lower-case letters, digits, dots and hyphens), got "gs://files"',
    ]);
    expect(configProblems(parseConfig({ UPLOAD_STORE: 's3://My_Bucket/x', S3_REGION: 'us-east-1' }))[0]).toMatch(/^UPLOAD_STORE: expected/);
    expect(configProblems(parseConfig({ UPLOAD_STORE: 'file:' }))).toEqual([
      'UPLOAD_STORE: expected file:<directory> with a directory, got "file:"',
    ]);
    expect(configProblems(parseConfig({ UPLOAD_STORE: 's3://ptk-files/x' }))).toEqual([
      "S3_REGION: expected the bucket's region when UPLOAD_STORE is s3:// (e.g. eu-west-1; auto for Cloudflare R2; us-east-1 for MinIO), got nothing",
    ]);
    expect(configProblems(parseConfig({ S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'yes' }))).toEqual([
      'S3_FORCE_PATH_STYLE: expected one of: true, false, got "yes"',
    ]);
    expect(configProblems(parseConfig({ S3_ENDPOINT: 'http://minio:9000' }))).toEqual([
      'S3_ENDPOINT: expected nothing unless UPLOAD_STORE is s3://<bucket>/<prefix> (uploads go to a directory), got "http://minio:9000"',
    ]);
    expect(configProblems(parseConfig({ UPLOAD_MAX_FILES_PER_TASK: '0' }))).toEqual([
      'UPLOAD_MAX_FILES_PER_TASK: expected a whole number from 1 to 10000, got "0"',
    ]);
    expect(configProblems(parseConfig({ UPLOAD_MAX_FILES_PER_ATTEMPT: '0' }))).toEqual([
      'UPLOAD_MAX_FILES_PER_ATTEMPT: expected a whole number from 1 to 10000, got "0"',
    ]);
  });

  it('decodes files in a process per core (four at most) within 56 MB by default, each for 30 s at most, or as set', () => {
    expect(parseConfig({})).toMatchObject({
      ok: true,
      config: {
        uploads: { cleaning: { processes: Math.min(4, availableParallelism()), memoryBytes: 56 * 1024 * 1024, timeoutMs: 30_000 } },
      },
    });
    expect(
      parseConfig({ UPLOAD_CLEANING_PROCESSES: '4', UPLOAD_CLEANING_MEMORY_MB: '200', UPLOAD_CLEANING_TIMEOUT_MS: '5000' }),
    ).toMatchObject({
      ok: true,
      config: { uploads: { cleaning: { processes: 4, memoryBytes: 200 * 1024 * 1024, timeoutMs: 5000 } } },
    });
    expect(
      configProblems(parseConfig({ UPLOAD_CLEANING_PROCESSES: '0', UPLOAD_CLEANING_MEMORY_MB: '8', UPLOAD_CLEANING_TIMEOUT_MS: '50' })),
    ).toEqual([
      'UPLOAD_CLEANING_PROCESSES: expected a whole number from 1 to 64, got "0"',
      'UPLOAD_CLEANING_MEMORY_MB: expected a whole number from 16 to 65536, got "8"',
      'UPLOAD_CLEANING_TIMEOUT_MS: expected a whole number from 100 to 600000, got "50"',
    ]);
  });

  it('never echoes a credential, not even a misplaced one', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const problems = configProblems(parseConfig({ UPLOAD_STORE: 's3://ptk-files', S3_REGION: 'eu-west-1', AWS_SECRET_ACCESS_KEY: secret }));
    expect(problems).toEqual(['AWS_ACCESS_KEY_ID: expected it with AWS_SECRET_ACCESS_KEY (an access key is both), got nothing']);
    const tokenOnly = configProblems(parseConfig({ UPLOAD_STORE: 's3://ptk-files', S3_REGION: 'eu-west-1', AWS_SESSION_TOKEN: secret }));
    expect(tokenOnly).toEqual(['AWS_SESSION_TOKEN: expected only with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, got them unset']);
    expect(JSON.stringify([...problems, ...tokenOnly])).not.toContain(secret);
  });

  it('warns when files would cross the network in clear text', () => {
    const result = parseConfig({ UPLOAD_STORE: 's3://ptk-files', S3_REGION: 'us-east-1', S3_ENDPOINT: 'http://minio:9000' });
    expect(result).toMatchObject({
      ok: true,
      config: { warnings: ['S3_ENDPOINT is plain HTTP to minio:9000: uploaded files cross the network unencrypted'] },
    });
    expect(parseConfig({ UPLOAD_STORE: 's3://ptk-files', S3_REGION: 'us-east-1', S3_ENDPOINT: 'http://127.0.0.1:9000' })).toMatchObject({
      ok: true,
      config: { warnings: [] },
    });
  });
});
