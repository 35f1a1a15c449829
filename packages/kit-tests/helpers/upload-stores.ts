import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { HeadObjectCommand, ListPartsCommand } from '@aws-sdk/client-s3';
import { s3UploadFiles } from '@partner-task-kit/server/uploads/s3-upload-files';
import { directoryUploadFiles, type UploadFiles } from '@partner-task-kit/server/uploads/upload-files';
import { startS3Server } from './s3-server';

/** One upload store for one test, and what a copy of it would show. */
export interface TestUploadStore {
  readonly files: UploadFiles;
  /** What a command started with these variables (and a database) uses as its upload store. */
  readonly env: Record<string, string>;
  /** Every object the store holds, by name, with its bytes: what someone with the disk or the bucket would read. */
  objects(): Promise<{ name: string; bytes: Buffer }[]>;
  /**
   * The S3 multipart uploads holding parts among those `objects()` has seen named (in a `.info`): their parts hold
   * bytes but are no objects of the bucket. None in a directory.
   */
  openMultipartUploads(): Promise<string[]>;
  cleanup(): Promise<void>;
}

export interface TestUploadStoreKind {
  readonly name: 'directory' | 's3';
  open(): Promise<TestUploadStore>;
}

/** Use with `describe.each(testUploadStores)('... in the $name store', (kind) => ...)`. */
export const testUploadStores: readonly TestUploadStoreKind[] = [
  { name: 'directory', open: openDirectoryStore },
  { name: 's3', open: openS3Store },
];

async function openDirectoryStore(): Promise<TestUploadStore> {
  const directory = mkdtempSync(join(tmpdir(), 'ptk-upload-store-'));
  return {
    files: directoryUploadFiles(directory),
    env: { UPLOAD_STORE: `file:${directory}` },
    objects: async () =>
      readdirSync(directory, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => {
          const path = join(entry.parentPath, entry.name);
          return { name: relative(directory, path), bytes: readFileSync(path) };
        }),
    openMultipartUploads: async () => [],
    cleanup: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** A bucket of s3rver on loopback (s3-server.ts), under a prefix, as a deployment on S3 has it. */
async function openS3Store(): Promise<TestUploadStore> {
  const s3 = await startS3Server();
  const prefix = 'ptk/uploads/';
  const multipart = new Map<string, string>();
  return {
    files: s3UploadFiles(s3.uploadStore(prefix)),
    env: s3.environment(prefix),
    async objects() {
      const objects: { name: string; bytes: Buffer }[] = [];
      for (const key of await s3.listKeys()) {
        const bytes = await s3.getObject(key);
        if (bytes) objects.push({ name: key, bytes });
        if (!key.endsWith('.info')) continue;
        const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
        const uploadId = head.Metadata?.['upload-id'];
        if (uploadId) multipart.set(uploadId, key.slice(0, -'.info'.length));
      }
      return objects;
    },
    async openMultipartUploads() {
      const open: string[] = [];
      for (const [uploadId, key] of multipart) {
        const parts = await s3.client.send(new ListPartsCommand({ Bucket: s3.bucket, Key: key, UploadId: uploadId })).then(
          (listed) => listed.Parts?.length ?? 0,
          (error: unknown) => {
            if ((error as { name?: string }).name === 'NoSuchUpload') return 0;
            throw error;
          },
        );
        if (parts > 0) open.push(key);
      }
      return open;
    },
    cleanup: () => s3.close(),
  };
}

/** A directory store whose directory is never made: for a retention run over a database that holds no upload. */
export function unusedUploadFiles(): UploadFiles {
  return directoryUploadFiles(join(tmpdir(), `ptk-no-uploads-${randomBytes(8).toString('hex')}`));
}
