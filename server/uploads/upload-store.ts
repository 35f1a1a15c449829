import { dirname, join } from 'node:path';
import type { Config } from '../config';
import { directoryUploadFiles, type UploadFiles } from './upload-files';

/**
 * The store the configuration names (docs/configuration.md#uploads), made once per process and shared by the upload
 * routes, the partner API, the CLI and retention: each reads and removes the same files.
 */
export function uploadFilesOf(config: Pick<Config, 'database'>): UploadFiles {
  return directoryUploadFiles(defaultUploadDirectory(config));
}

/** Beside the SQLite file, as the sensitive-data key is; `./data/uploads` with Postgres. */
function defaultUploadDirectory(config: Pick<Config, 'database'>): string {
  const database = config.database;
  return database.kind === 'sqlite' && database.filename !== ':memory:' && database.filename !== ''
    ? join(dirname(database.filename), 'uploads')
    : './data/uploads';
}
