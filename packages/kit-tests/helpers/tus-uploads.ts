import sharp from 'sharp';
import * as tus from 'tus-js-client';
import { bearer } from './task-app';

/** Where an upload is for: the step and field the test's `fileRuleOf` accepts. */
export interface UploadTarget {
  stepId: string;
  field: string;
}

/** One upload with tus-js-client (an implementation we did not write), over real HTTP, to its end: the upload's id. */
export function uploadWithTus(endpoint: string, token: string, file: Buffer, target: UploadTarget): Promise<string> {
  return new Promise((resolve, reject) => {
    const running = new tus.Upload(file, {
      endpoint,
      headers: bearer(token),
      metadata: { filename: 'IMG_0001.jpg', filetype: 'image/jpeg', ...target },
      retryDelays: [],
      storeFingerprintForResuming: false,
      onSuccess: () => resolve(running.url!.split('/').pop()!),
      onError: reject,
    });
    running.start();
  });
}

/**
 * An upload begun and left: created for `file`'s whole length, then the first `sent` bytes of it in one PATCH, as a
 * phone that lost its signal half way leaves it. Returns the upload's id.
 */
export async function uploadPartly(endpoint: string, token: string, file: Buffer, sent: number, target: UploadTarget): Promise<string> {
  const encoded = Object.entries({ filename: 'IMG_0002.jpg', filetype: 'image/jpeg', ...target })
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
  const headers = { ...bearer(token), 'tus-resumable': '1.0.0' };
  const created = await fetch(endpoint, {
    method: 'POST',
    headers: { ...headers, 'upload-length': String(file.length), 'upload-metadata': encoded },
  });
  if (created.status !== 201) throw new Error(`creation answered ${created.status}: ${await created.text()}`);
  const url = new URL(created.headers.get('location')!, endpoint);
  const patched = await fetch(url, {
    method: 'PATCH',
    headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(file.subarray(0, sent)),
  });
  if (patched.status !== 204) throw new Error(`PATCH answered ${patched.status}: ${await patched.text()}`);
  return url.pathname.split('/').pop()!;
}

/**
 * A JPEG of noise, unlike any other (`seed` sets its colour): distinct bytes to look for in a store. Noise keeps it
 * from compressing to a few hundred bytes that any other file might share.
 */
export function noisyPhoto(seed: number, size = 160): Promise<Buffer> {
  const background = { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 151) % 256 };
  return sharp({ create: { width: size, height: size, channels: 3, background, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
}
