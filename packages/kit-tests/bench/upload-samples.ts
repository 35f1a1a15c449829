import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { scanBomb } from '../helpers/scan-bomb';

export interface UploadSample {
  /** What the file is, for the report. */
  description: string;
  bytes: Buffer;
}

/**
 * A phone's photo at its heaviest for a 10 MB field: 12 MP (4032 × 3024, the main camera's default on most phones),
 * detail everywhere (noise, which JPEG compresses least), EXIF with the camera and a GPS position, and orientation 6,
 * the portrait shot phones store sideways. The server decodes all of it, turns it upright (which needs the whole
 * image, not a strip at a time) and encodes it again: the costliest file a worker's phone sends. `upright`: the same
 * without the orientation, which the server decodes and encodes a strip at a time.
 */
export async function phonePhoto(options: { upright?: boolean } = {}): Promise<UploadSample> {
  const photo = sharp({
    create: { width: 4032, height: 3024, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 95 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 700/100' },
    });
  if (options.upright) return { description: 'JPEG, 12 MP, upright, EXIF and GPS', bytes: await photo.toBuffer() };
  const bytes = await photo.withMetadata({ orientation: 6 }).toBuffer();
  return { description: 'JPEG, 12 MP, stored sideways (EXIF orientation 6), EXIF and GPS', bytes };
}

/**
 * The smallest photo of the benchmark: 1200 × 900, stored sideways like `phonePhoto`, some 0.5 MB, sent by an
 * eleventh task once the ten's bytes are in, to see whether it waits for all of them (docs/api.md#uploads).
 */
export async function smallPhoto(): Promise<UploadSample> {
  const bytes = await sharp({
    create: { width: 1200, height: 900, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  return { description: 'JPEG, 1 MP, stored sideways', bytes };
}

/** A PDF of `size` bytes (one stream of random bytes): checked by its first bytes and kept as it is, never decoded. */
export function scannedPdf(size: number): UploadSample {
  const head = Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Length ${size} >>\nstream\n`);
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< >>\n%%EOF\n');
  const body = randomBytes(Math.max(0, size - head.length - tail.length));
  return { description: 'PDF, kept as sent', bytes: Buffer.concat([head, body, tail]) };
}

/**
 * A progressive JPEG of 48 MP (under the 50 MP bound) and 3,000 scans that hold nothing, some 500 KB: about 10 s of a
 * core to decode, the file a server that decodes whatever passes the pixel bound spends most on per byte
 * (docs/api.md#uploads).
 */
export async function scanBombSample(): Promise<UploadSample> {
  const bytes = await scanBomb({ width: 8000, height: 6000, extraScans: 3000 });
  return { description: 'progressive JPEG, 48 MP, 3,000 empty scans more', bytes };
}
