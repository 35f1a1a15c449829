import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKitCommand } from '../helpers/run-command';
import { startS3Server, type AddedS3Call, type S3TestServer } from '../helpers/s3-server';

const directory = mkdtempSync(join(tmpdir(), 'ptk-doctor-uploads-'));
const doctorWith = (env: Record<string, string>) =>
  runKitCommand(
    'doctor',
    { DATABASE_URL: join(directory, 'tasks.db'), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    30_000,
  );

describe('npm run doctor: the upload store', () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('makes every S3 call the store makes, on probe objects under the prefix, and leaves nothing there', async () => {
    const result = await doctorWith(s3.environment('uploads/'));
    const calls =
      'GetObject, HeadObject, PutObject, CreateMultipartUpload, UploadPart, ListParts, CompleteMultipartUpload, AbortMultipartUpload, DeleteObject, DeleteObjects';
    expect(result.stdout).toMatch(
      new RegExp(
        `^ok {3}upload store: bucket ptk-test-uploads, keys under uploads/, at 127\\.0\\.0\\.1:\\d+ answers ${calls}, on probe objects removed since$`,
        'm',
      ),
    );
    expect(result.code).toBe(0);
    expect(await s3.listKeys()).toEqual([]);
    expect(await s3.unfinishedUploads()).toBe(0);
  });

  // s3rver as it comes answers ListParts and AbortMultipartUpload 405: every PATCH of an upload would fail there.
  it.each([
    { without: ['ListParts', 'AbortMultipartUpload'] as AddedS3Call[], missing: 'ListParts' },
    { without: ['AbortMultipartUpload'] as AddedS3Call[], missing: 'AbortMultipartUpload' },
  ])('names $missing on a store without $without, and removes its probe objects', async ({ without, missing }) => {
    const lacking = await startS3Server({ without });
    try {
      const result = await doctorWith(lacking.environment('uploads/'));
      expect(result.stdout).toMatch(
        new RegExp(`^FAIL upload store: bucket ptk-test-uploads, keys under uploads/, at .*: ${missing}: MethodNotAllowed: `, 'm'),
      );
      expect(result.stdout).toContain(`next step: This store does not do ${missing} as S3 does, and the upload store needs it`);
      expect(result.code).toBe(1);
      expect(await lacking.listKeys()).toEqual([]);
      // Without AbortMultipartUpload its unfinished upload cannot be ended: the line says so.
      expect(await lacking.unfinishedUploads()).toBe(1);
      expect(result.stdout).toMatch(/; left behind: the unfinished multipart upload of uploads\/doctor-probe-[\w-]+(\.aborted)?$/m);
    } finally {
      await lacking.close();
    }
  });

  it('names a missing bucket, and a wrong credential without showing it', async () => {
    const missing = await doctorWith({ ...s3.environment(), UPLOAD_STORE: 's3://no-such-bucket/x' });
    expect(missing.stdout).toMatch(/^FAIL upload store: bucket no-such-bucket, keys under x\/, at .*: NoSuchBucket: /m);
    expect(missing.stdout).toContain('next step: Create the bucket, or correct the bucket in UPLOAD_STORE.');
    expect(missing.code).toBe(1);

    // s3rver checks the access key id, not SigV4 signatures: a wrong key id stands for a wrong credential here.
    const credential = { AWS_ACCESS_KEY_ID: 'AKIANOTAKEYOFTHISSTORE', AWS_SECRET_ACCESS_KEY: 'not-the-secret-of-this-store-0123456789' };
    const wrongKey = await doctorWith({ ...s3.environment(), ...credential });
    expect(wrongKey.stdout).toMatch(/^FAIL upload store: .*: InvalidAccessKeyId: /m);
    expect(wrongKey.stdout).toContain('next step: Correct AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
    for (const value of Object.values(credential)) expect(wrongKey.stdout + wrongKey.stderr).not.toContain(value);
    expect(wrongKey.code).toBe(1);
  });

  it('says a directory store is made at the first upload, and names one that cannot be', async () => {
    const fresh = await doctorWith({ UPLOAD_STORE: `file:${join(directory, 'uploads')}` });
    expect(fresh.stdout).toMatch(
      /^ok {3}upload store: the directory .*uploads does not exist yet: the server makes it at the first upload$/m,
    );
    expect(fresh.code).toBe(0);

    const locked = join(directory, 'locked');
    mkdirSync(locked, { mode: 0o500 });
    chmodSync(locked, 0o500);
    const refused = await doctorWith({ UPLOAD_STORE: `file:${join(locked, 'uploads')}` });
    // root writes anywhere: there the directory is simply writable.
    if (process.getuid?.() === 0) expect(refused.stdout).toMatch(/^ok {3}upload store: /m);
    else expect(refused.stdout).toMatch(/^FAIL upload store: the directory .*locked\/uploads cannot be written, nor made$/m);
  });
});
