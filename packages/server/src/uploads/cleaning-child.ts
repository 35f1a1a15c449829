import type { JpegOptions } from 'sharp';

/** What a cleaning process is asked: one received file, decoded and encoded again into `cleanedPath`. */
export type DecodingJob =
  | {
      kind: 'image';
      path: string;
      cleanedPath: string;
      format: 'jpeg' | 'png';
      maxPixels: number;
      jpeg: JpegOptions;
    }
  | { kind: 'heic'; path: string; cleanedPath: string; maxPixels: number; jpeg: JpegOptions };

/** Its answer: written, or why not, for upload-cleaning.ts to say in words. */
export type DecodingAnswer =
  | { ok: true }
  | { ok: false; reason: 'unreadable' }
  | { ok: false; reason: 'pictures'; pictures: number }
  | { ok: false; reason: 'pixels'; width: number; height: number };

/**
 * The cleaning process, plain CommonJS given to `node -e` as text, with the paths of sharp and heic-decode as its
 * arguments (resolved by the server from its own place): so it runs the same from the sources under tsx or vitest,
 * from the built package and from the app's bundle, which has no file of it beside it. It answers `{ready: true}` once
 * loaded, then one answer per job, in order; it ends with the server (its IPC channel closing).
 *
 * An image is decoded and encoded again by sharp, turned upright first: sharp keeps no metadata unless asked
 * (withMetadata/keepExif), and rotate() applies the EXIF orientation. A HEIC photo is decoded by heic-decode (libheif
 * compiled to WebAssembly, which sharp's libvips is built without), read whole as that decoder takes it; libheif
 * applies the picture's rotation and mirroring (irot, imir) as it decodes, which is what turns a HEIC upright, so its
 * EXIF orientation, when it has one, is not applied again. heic-decode decodes the file's first picture, which need not
 * be the one the file names as its own, so a file of several is refused. Raw pixels carry no metadata; a transparent
 * part is shown on white.
 */
export const cleaningChildSource = `
'use strict';
const { readFile } = require('node:fs/promises');
const sharp = require(process.argv[1]);
// Every upload is a new file: libvips' cache of operations would only keep the last images' memory held.
sharp.cache(false);
// One decoding at a time per process, on one libvips thread: the pool's processes are its parallelism, and each
// thread more would hold buffers of its own for no speed the other processes do not already take.
sharp.concurrency(1);
let heic;

async function cleanImage(job) {
  const image = sharp(job.path, { failOn: 'error', sequentialRead: true, limitInputPixels: job.maxPixels }).rotate();
  await (job.format === 'png' ? image.png() : image.jpeg(job.jpeg)).toFile(job.cleanedPath);
  return { ok: true };
}

async function cleanHeic(job) {
  heic ??= require(process.argv[2]);
  const images = await heic.all({ buffer: await readFile(job.path) });
  try {
    if (images.length !== 1) return { ok: false, reason: 'pictures', pictures: images.length };
    const { width, height } = images[0];
    if (!(width > 0 && height > 0)) return { ok: false, reason: 'unreadable' };
    if (width * height > job.maxPixels) return { ok: false, reason: 'pixels', width, height };
    const { data } = await images[0].decode();
    const pixels = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    await sharp(pixels, { raw: { width, height, channels: 4 } }).flatten({ background: '#ffffff' }).jpeg(job.jpeg).toFile(job.cleanedPath);
    return { ok: true };
  } finally {
    images.dispose();
  }
}

let queue = Promise.resolve();
process.on('message', (job) => {
  queue = queue.then(async () => {
    const answer = await (job.kind === 'heic' ? cleanHeic(job) : cleanImage(job)).catch(() => ({ ok: false, reason: 'unreadable' }));
    process.send(answer);
  });
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
`;
