import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import type { FileType, StoredFileType } from '@partner-task-kit/workflow/file-field';
import { decodeHeic } from './heic-decoding.ts';

interface CleanedFile {
  contentType: StoredFileType;
  bytes: number;
  sha256: string;
}

/**
 * JPEG as cleaning writes it: without sharp's default Huffman optimisation, which holds the whole image's coefficients
 * until the end to make the file about 4 % smaller. With it, a 12 MP photo cost 60 % more CPU, and ten at once raised
 * the server's RSS by 370 MB, one at a time included (docs/development.md#benchmarks).
 */
const CLEANED_JPEG = { quality: 90, optimiseCoding: false } as const;

/**
 * The most pixels an image may have, as for a HEIC photo (heic-decoding.ts): a 48 MP phone photo passes, while an
 * image made to be small on the wire and huge once decoded (a decompression bomb) is refused before it is decoded.
 */
const MAX_IMAGE_PIXELS = 50_000_000;

/** A file that passed: what it is, and where its cleaned bytes are (`path` itself when kept as it was). */
export type Cleaning = { ok: true; file: CleanedFile; path: string } | { ok: false; message: string };

/**
 * The received file, checked and cleaned (docs/api.md#uploads): its type read from its bytes (file-type), never from
 * its name or the client's claim; an image decoded and encoded again into `cleanedPath`, turned upright first, so that
 * nothing of its metadata (EXIF with a GPS position, XMP, maker notes) is kept; a HEIC photo converted so to JPEG; a
 * PDF kept as it is. Files are read and written in parts by file-type, sharp and the hash, never held whole in memory,
 * but for a HEIC photo, which its decoder takes whole (heic-decoding.ts).
 */
export async function cleanUpload(path: string, cleanedPath: string, accepted: readonly FileType[]): Promise<Cleaning> {
  const detected = await fileTypeFromFile(path);
  // HEIF is the container a HEIC photo is in: file-type names it image/heif when its brand is the generic one.
  const mime = detected?.mime === 'image/heif' ? 'image/heic' : detected?.mime;
  if (mime === undefined || !isFileType(mime) || !accepted.includes(mime)) {
    const found = mime ? `is ${mime}` : 'is of no type we know';
    return { ok: false, message: `The file ${found}; this field accepts ${accepted.join(', ')}.` };
  }
  if (mime === 'application/pdf') return { ok: true, file: await describe(path, mime), path };
  if (mime === 'image/heic') {
    const decoded = await decodeHeic(path);
    if (!decoded.ok) return decoded;
    // Raw pixels carry no metadata, and libheif has turned them upright; a transparent part is shown on white.
    const raw = { width: decoded.width, height: decoded.height, channels: 4 } as const;
    await sharp(decoded.pixels, { raw }).flatten({ background: '#ffffff' }).jpeg(CLEANED_JPEG).toFile(cleanedPath);
    return { ok: true, file: await describe(cleanedPath, 'image/jpeg'), path: cleanedPath };
  }
  // Read from the header before a pixel is decoded: a 1.5 MB JPEG of 16000x16000 took 774 MB to turn upright.
  const size = await sharp(path)
    .metadata()
    .then(
      (metadata) => metadata.width * metadata.height,
      () => undefined,
    );
  if (size === undefined) return { ok: false, message: `The file starts as ${mime} but is not a readable image.` };
  if (size > MAX_IMAGE_PIXELS) {
    return { ok: false, message: `The image is ${(size / 1e6).toFixed(1)} megapixels; at most ${MAX_IMAGE_PIXELS / 1e6} are taken.` };
  }
  try {
    // sharp keeps no metadata unless asked (withMetadata/keepExif); rotate() applies the EXIF orientation first.
    const image = sharp(path, { failOn: 'error', sequentialRead: true, limitInputPixels: MAX_IMAGE_PIXELS }).rotate();
    await (mime === 'image/png' ? image.png() : image.jpeg(CLEANED_JPEG)).toFile(cleanedPath);
  } catch {
    return { ok: false, message: `The file starts as ${mime} but is not a readable image.` };
  }
  return { ok: true, file: await describe(cleanedPath, mime), path: cleanedPath };
}

async function describe(path: string, contentType: StoredFileType): Promise<CleanedFile> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return { contentType, bytes: (await stat(path)).size, sha256: hash.digest('hex') };
}

function isFileType(mime: string): mime is FileType {
  return mime === 'image/jpeg' || mime === 'image/png' || mime === 'image/heic' || mime === 'application/pdf';
}
