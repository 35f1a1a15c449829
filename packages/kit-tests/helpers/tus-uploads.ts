import sharp from 'sharp';
import * as tus from 'tus-js-client';
import { bearer } from './task-app';
import type { FileRule } from '@partner-task-kit/workflow/file-field';

/** Where an upload is for: the step and field the test's `fileRuleOf` accepts. */
export interface UploadTarget {
  stepId: string;
  field: string;
}

/**
 * The file most upload tests send: a photo for the first step of the default workflow, where a new task is (a file is
 * taken for the step at hand only, docs/api.md#uploads).
 */
export const welcomePhoto = { stepId: 'welcome', field: 'photo' } satisfies UploadTarget;
const photoRule: FileRule = { types: ['image/jpeg', 'image/png'], maxBytes: 10 * 1024 * 1024 };

/** The uploads' `fileRuleOf` of those tests: `welcomePhoto` takes a photo, and nothing else takes a file. */
export function welcomePhotoRuleOf(_workflowId: string, stepId: string, field: string): FileRule | undefined {
  return stepId === welcomePhoto.stepId && field === welcomePhoto.field ? photoRule : undefined;
}

/** The header every tus request carries: the protocol's version. */
export const TUS_HEADERS = { 'tus-resumable': '1.0.0' } as const;

/** A tus `Upload-Metadata` header: each key with its value in base64. */
export function tusMetadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
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
  const encoded = tusMetadata({ filename: 'IMG_0002.jpg', filetype: 'image/jpeg', ...target });
  const headers = { ...bearer(token), ...TUS_HEADERS };
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
