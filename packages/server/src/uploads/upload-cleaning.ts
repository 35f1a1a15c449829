import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import type { FileType, StoredFileType } from '@partner-task-kit/workflow';
import type { DecodingJob } from './cleaning-child.ts';
import type { PoolAnswer } from './cleaning-pool.ts';
import { countJpegScans } from './jpeg-scans.ts';

interface CleanedFile {
  contentType: StoredFileType;
  bytes: number;
  sha256: string;
}

/**
 * JPEG as cleaning writes it: without sharp's default Huffman optimisation, which holds the whole image's coefficients
 * until the end to make the file a few percent smaller. With it, a photo cost much more CPU, and ten at once raised the
 * server's RSS by hundreds of megabytes, one at a time included (packages/kit-tests/bench/uploads.ts; BENCHMARKS.md has
 * the RSS without it).
 */
const CLEANED_JPEG = { quality: 90, optimiseCoding: false } as const;

/**
 * The most pixels an image may have, a HEIC photo's included: a 48 MP phone photo passes, while an image made to be
 * small on the wire and huge once decoded (a decompression bomb) is refused before it is decoded. Decoding a HEIC
 * photo holds about 16 bytes a pixel at its peak (the file and the picture inside the decoder, then the RGBA pixels):
 * some 200 MB for a 12 MP photo.
 */
const MAX_IMAGE_PIXELS = 50_000_000;

/**
 * The most scans a JPEG may have (docs/api.md#uploads). The decoder goes over the whole image once per scan of a
 * progressive JPEG, however little the scan holds, so a small file of thousands of empty scans at 48 MP held a core
 * for seconds. libjpeg's and mozjpeg's progressive modes write about 10 scans for a colour photo, and a baseline JPEG
 * one per component at most; 100 cost a fraction of a second more at 48 MP. BENCHMARKS.md has uploads beside such a
 * file, refused.
 */
const MAX_JPEG_SCANS = 100;

/**
 * Decodes a file in a process of the pool, under a deadline (cleaning-pool.ts): the cleaning's costly part.
 * `memoryBytes`: what its decoding is estimated to hold at its peak (decodingMemory), which the pool admits by.
 */
export type Decode = (job: DecodingJob, memoryBytes: number) => Promise<PoolAnswer>;

/**
 * The rows of an image a decoding that streams holds at once, about: libvips' strips and the JPEG or PNG encoder's
 * buffers. A 12 MP JPEG decoded and encoded again upright, a strip at a time, raised its process's memory by some
 * 11 MB (docs/development.md#benchmarks); 1,024 rows of its 4,032 pixels of 3 bytes is 12 MB.
 */
const STREAMED_ROWS = 1024;

/** A HEIC photo's decoding holds about this much a pixel at its peak (MAX_IMAGE_PIXELS says why). */
const HEIC_BYTES_PER_PIXEL = 16;

/**
 * The memory decoding an image will hold at its peak, estimated from its header (sharp's `metadata()`, which reads no
 * pixel): the whole decoded image when it cannot be streamed (a rotation or a vertical flip needs every row before
 * it writes the first, a progressive JPEG keeps all its coefficients until its last scan, an interlaced PNG all its
 * rows), plus a quarter for the encoder's and decoder's own buffers; otherwise a band of rows. The pool admits
 * decodings by it (cleaning-gate.ts).
 */
function decodingMemory(image: {
  width: number;
  height: number;
  channels?: number;
  depth?: string;
  orientation?: number;
  isProgressive?: boolean;
}): number {
  const pixelBytes = (image.channels ?? 3) * (image.depth === 'ushort' ? 2 : 1);
  const whole = (image.orientation ?? 1) > 2 || image.isProgressive === true;
  return whole
    ? Math.ceil(image.width * image.height * pixelBytes * 1.25)
    : image.width * pixelBytes * Math.min(image.height, STREAMED_ROWS);
}

/** A file that passed: what it is, and where its cleaned bytes are (`path` itself when kept as it was). */
export type Cleaning = { ok: true; file: CleanedFile; path: string } | { ok: false; message: string };

/**
 * The received file, checked and cleaned (docs/api.md#uploads): its type read from its bytes (file-type), never from
 * its name or the client's claim; what decoding it would cost read from its headers (its pixels, a JPEG's scans), and a
 * file past the bounds refused undecoded; an image then decoded and encoded again into `cleanedPath` by `decode`,
 * turned upright first, so that nothing of its metadata (EXIF with a GPS position, XMP, maker notes) is kept; a HEIC
 * photo converted so to JPEG; a PDF kept as it is. Files are read and written in parts by file-type, sharp, the scan
 * count and the hash, never held whole in memory, but for a HEIC photo, which its decoder takes whole.
 */
export async function cleanUpload(path: string, cleanedPath: string, accepted: readonly FileType[], decode: Decode): Promise<Cleaning> {
  const detected = await fileTypeFromFile(path);
  // HEIF is the container a HEIC photo is in: file-type names it image/heif when its brand is the generic one.
  const mime = detected?.mime === 'image/heif' ? 'image/heic' : detected?.mime;
  if (mime === undefined || !isFileType(mime) || !accepted.includes(mime)) {
    const found = mime ? `is ${mime}` : 'is of no type we know';
    return { ok: false, message: `The file ${found}; this field accepts ${accepted.join(', ')}.` };
  }
  if (mime === 'application/pdf') return { ok: true, file: await describe(path, mime), path };
  // Read from the header before a pixel is decoded: a 1.5 MB JPEG of 16000x16000 took 774 MB to turn upright.
  const metadata = await sharp(path)
    .metadata()
    .catch(() => undefined);
  if (mime === 'image/heic') {
    // libheif reads the picture's size as it opens the file, before decoding it (cleaning-child.ts), and checks it
    // there; when libvips could not read it here, it is taken as a 12 MP phone photo's.
    const pixels = metadata ? metadata.width * metadata.height : 12_000_000;
    const memory = Math.min(pixels, MAX_IMAGE_PIXELS) * HEIC_BYTES_PER_PIXEL;
    const answer = await decode({ kind: 'heic', path, cleanedPath, maxPixels: MAX_IMAGE_PIXELS, jpeg: CLEANED_JPEG }, memory);
    if (!answer.ok) return { ok: false, message: refusal(answer, 'HEIC photo') };
    return { ok: true, file: await describe(cleanedPath, 'image/jpeg'), path: cleanedPath };
  }
  const size = metadata && metadata.width * metadata.height;
  if (!metadata || !size) return { ok: false, message: `The file starts as ${mime} but is not a readable image.` };
  if (size > MAX_IMAGE_PIXELS) return { ok: false, message: tooManyPixels(size) };
  if (mime === 'image/jpeg') {
    const scans = await countJpegScans(path, MAX_JPEG_SCANS);
    if (scans > MAX_JPEG_SCANS) {
      return {
        ok: false,
        message: `The JPEG is made of more than ${MAX_JPEG_SCANS} scans (layers of a progressive JPEG), which takes too long to read: send the photo as the camera saved it, or saved again as an ordinary JPEG.`,
      };
    }
  }
  const format = mime === 'image/png' ? 'png' : 'jpeg';
  const job = { kind: 'image', path, cleanedPath, format, maxPixels: MAX_IMAGE_PIXELS, jpeg: CLEANED_JPEG } as const;
  const answer = await decode(job, decodingMemory(metadata));
  if (!answer.ok) return { ok: false, message: refusal(answer, mime) };
  return { ok: true, file: await describe(cleanedPath, mime), path: cleanedPath };
}

/** Why a decoding refused the file, said to the worker. */
function refusal(answer: Exclude<PoolAnswer, { ok: true }>, what: string): string {
  switch (answer.reason) {
    case 'pictures':
      // heic-decode decodes the file's first picture, which need not be the one the file names as its own (its primary).
      return `The HEIC file holds ${answer.pictures} pictures: send the photo alone, or as JPEG.`;
    case 'pixels':
      return tooManyPixels(answer.width * answer.height);
    case 'deadline':
      return `The file took too long to read and was stopped: send the photo as the camera saved it, or a smaller one.`;
    case 'unreadable':
    case 'crashed':
      return what === 'HEIC photo'
        ? 'The file starts as a HEIC photo but is not a readable one.'
        : `The file starts as ${what} but is not a readable image.`;
  }
}

function tooManyPixels(size: number): string {
  return `The image is ${(size / 1e6).toFixed(1)} megapixels; at most ${MAX_IMAGE_PIXELS / 1e6} are taken.`;
}

async function describe(path: string, contentType: StoredFileType): Promise<CleanedFile> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return { contentType, bytes: (await stat(path)).size, sha256: hash.digest('hex') };
}

function isFileType(mime: string): mime is FileType {
  return mime === 'image/jpeg' || mime === 'image/png' || mime === 'image/heic' || mime === 'application/pdf';
}
