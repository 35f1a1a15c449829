import type { Config } from '../config.ts';
import { s3UploadFiles } from './s3-upload-files.ts';
import { directoryUploadFiles, type UploadFiles } from './upload-files.ts';

/**
 * The store the configuration names (UPLOAD_STORE, docs/configuration.md#uploads), made once per process and shared by
 * the upload routes, the partner API, the CLI and retention: each reads and removes the same files.
 */
export function uploadFilesOf(config: Pick<Config, 'uploads'>): UploadFiles {
  const store = config.uploads.store;
  return store.kind === 's3' ? s3UploadFiles(store) : directoryUploadFiles(store.directory);
}
