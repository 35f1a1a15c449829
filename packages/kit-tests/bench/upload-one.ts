import * as tus from 'tus-js-client';
import { BENCH_UPLOAD_FIELD } from './upload-field';

/**
 * One file sent with tus-js-client to its end, in chunks of `chunkBytes`; an error of any request fails the run (no
 * retries). `onSent`: once its last chunk is being sent (all the others accepted), before its answer, which the kit
 * gives once the file is cleaned (tus-js-client's `onProgress` says the last bytes only with that answer).
 */
export function uploadOne(
  endpoint: string,
  bytes: Buffer,
  headers: Record<string, string>,
  chunkBytes: number,
  onSent?: () => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(bytes, {
      endpoint,
      headers,
      chunkSize: chunkBytes,
      metadata: { filename: 'bench', filetype: 'application/octet-stream', ...BENCH_UPLOAD_FIELD },
      retryDelays: [],
      onChunkComplete: (_chunk, accepted, total) => accepted + chunkBytes >= total && accepted < total && onSent?.(),
      storeFingerprintForResuming: false,
      onSuccess: () => resolve(),
      onError: reject,
    });
    upload.start();
  });
}

/** The HTTP status a tus-js-client upload failed with. */
export function statusOf(error: unknown): number {
  return (error as tus.DetailedError).originalResponse?.getStatus() ?? 0;
}
