import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import type { DataStore } from '@tus/server';

/**
 * Where the bytes of uploads live (docs/configuration.md#uploads): what tus writes through, and what the rest of the
 * server needs of a stored file. The rows of the `uploads` table say what a file is; this only holds its bytes.
 */
export interface UploadFiles {
  /** `file` (a directory) or `s3` (a bucket and prefix): said in logs and by the CLI, never with credentials. */
  readonly kind: 'file' | 's3';
  /** The tus data store the uploads are written through. */
  datastore(): Promise<DataStore>;
  /**
   * Runs `use` with a local file holding the upload's bytes as received (checking and cleaning need a file: file-type
   * and sharp read it in parts, never whole). The directory store hands its own file; another one a temporary copy.
   */
  withLocalCopy<T>(id: string, use: (path: string) => Promise<T>): Promise<T>;
  /** Puts the file at `path` (the cleaned one) in place of what was received. */
  replace(id: string, path: string): Promise<void>;
  /** The stored bytes, as a stream; undefined when nothing is stored under that id. */
  open(id: string): Promise<Readable | undefined>;
  /** Removes the bytes and tus's record of them; true when there was something to remove. */
  remove(id: string): Promise<boolean>;
}

/** A directory of this machine: the default, beside the SQLite file (docs/configuration.md#uploads). */
export function directoryUploadFiles(directory: string): UploadFiles {
  // Made on the first upload: a server that never takes one needs no directory. Awaited here, as FileStore's own
  // mkdir is not, and throws its failure where nothing can catch it.
  let made: Promise<DataStore> | undefined;
  const pathOf = (id: string) => join(directory, id);
  return {
    kind: 'file',
    datastore: () =>
      (made ??= mkdir(directory, { recursive: true, mode: 0o700 }).then(
        () => new FileStore({ directory }),
        (error: unknown) => {
          made = undefined;
          throw error;
        },
      )),
    withLocalCopy: (id, use) => use(pathOf(id)),
    async replace(id, path) {
      if (path !== pathOf(id)) await copyFile(path, pathOf(id));
    },
    async open(id) {
      const exists = await stat(pathOf(id)).then(
        (found) => found.isFile(),
        () => false,
      );
      return exists ? createReadStream(pathOf(id)) : undefined;
    },
    async remove(id) {
      const existed = await stat(pathOf(id)).then(
        () => true,
        () => false,
      );
      // FileStore keeps its record of the upload beside the bytes, as `<id>.json`.
      await rm(pathOf(id), { force: true });
      await rm(`${pathOf(id)}.json`, { force: true });
      return existed;
    },
  };
}
