import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { WorkerExport } from '../store/worker-data.repository.ts';
import { storedFileName } from './stored-file-name.ts';
import type { UploadFiles } from './upload-files.ts';

export interface ExportWritten {
  /** Relative to the directory: `export.json`. */
  json: string;
  files: number;
  /** Completed uploads whose bytes the store no longer holds. */
  missing: string[];
  /** Uploads whose bytes, as written, do not hash to the sha256 stored when they were checked. */
  altered: string[];
}

export class ExportDirectoryNotEmpty extends Error {}

/**
 * Writes a worker's export into `directory` (docs/operations.md#export-and-erasure): the JSON as `export.json`, and
 * beside it each completed upload's bytes as `uploads/<id>.<ext>`, which the JSON names in the upload's `file`. An
 * upload still being sent is listed without a file: its bytes were neither checked nor cleaned. Each file is hashed
 * as it is written, and compared with the sha256 the JSON gives. The directory is created (or must be empty) and
 * readable by this user only, as what it holds is the worker's.
 */
export async function writeExportWithFiles(exported: WorkerExport, files: UploadFiles, directory: string): Promise<ExportWritten> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  if ((await readdir(directory)).length > 0) throw new ExportDirectoryNotEmpty(`${directory} is not empty`);
  await mkdir(join(directory, 'uploads'), { mode: 0o700 });
  const written: ExportWritten = { json: 'export.json', files: 0, missing: [], altered: [] };
  for (const upload of exported.tasks.flatMap((task) => task.uploads)) {
    if (upload.state !== 'completed') continue;
    const bytes = await files.open(upload.id);
    if (!bytes) {
      written.missing.push(upload.id);
      continue;
    }
    const file = `uploads/${storedFileName(upload.id, upload.contentType)}`;
    const hash = createHash('sha256');
    await pipeline(
      bytes,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          yield chunk;
        }
      },
      // wx: never over a file already there, and never through a link planted in its place.
      createWriteStream(join(directory, file), { flags: 'wx', mode: 0o600 }),
    );
    if (hash.digest('hex') !== upload.sha256) written.altered.push(upload.id);
    upload.file = file;
    written.files += 1;
  }
  await writeFile(join(directory, written.json), `${JSON.stringify(exported, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  return written;
}
