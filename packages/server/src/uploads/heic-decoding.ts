import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Upright RGBA pixels of a HEIC photo's picture, four bytes a pixel. */
export type HeicDecoding = { ok: true; width: number; height: number; pixels: Buffer } | { ok: false; message: string };

/**
 * The largest picture decoded (docs/api.md#uploads): a phone's largest HEIC, 48 MP, passes. Decoding holds about 16
 * bytes a pixel at its peak (the file and the picture inside the decoder, then the RGBA pixels): some 200 MB for a
 * 12 MP photo.
 */
const MAX_HEIC_PIXELS = 50_000_000;

/**
 * heic-decode (libheif compiled to WebAssembly) decodes synchronously, in memory a WebAssembly instance keeps once
 * grown: in a worker of its own the server goes on answering meanwhile, and the memory is returned when the worker
 * ends. The worker is plain CommonJS given as text, so it runs the same from the sources, the tests and the bundle.
 * libheif applies the picture's rotation and mirroring (irot, imir) as it decodes, which is what turns a HEIC upright:
 * its EXIF orientation, when it has one, says the same and is not applied again.
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFile } = require('node:fs/promises');
const decode = require(workerData.decoder);
(async () => {
  const images = await decode.all({ buffer: await readFile(workerData.path) });
  try {
    if (images.length !== 1) return parentPort.postMessage({ pictures: images.length });
    const { width, height } = images[0];
    if (width * height > workerData.maxPixels) return parentPort.postMessage({ pictures: 1, width, height });
    const { data } = await images[0].decode();
    parentPort.postMessage({ pictures: 1, width, height, data }, [data.buffer]);
  } finally {
    images.dispose();
  }
})();
`;

interface WorkerAnswer {
  pictures: number;
  width?: number;
  height?: number;
  data?: Uint8ClampedArray;
}

/** Decodes the HEIC (or HEIF) file at `path`, read once, whole: it is at most a file field's size. */
export async function decodeHeic(path: string, maxPixels = MAX_HEIC_PIXELS): Promise<HeicDecoding> {
  const require = createRequire(import.meta.url);
  const decoder = require.resolve('heic-decode');
  // stdout: libheif's own complaints about a broken file go nowhere, not into the server's log lines.
  const worker = new Worker(workerSource, { eval: true, workerData: { decoder, path, maxPixels }, stdout: true });
  worker.stdout.resume();
  const answer = await new Promise<WorkerAnswer | undefined>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
  await worker.terminate();
  if (answer?.pictures !== undefined && answer.pictures !== 1) {
    // heic-decode decodes the file's first picture, which need not be the one the file names as its own (its primary).
    return { ok: false, message: `The HEIC file holds ${answer.pictures} pictures: send the photo alone, or as JPEG.` };
  }
  if (!answer?.width || !answer.height) return { ok: false, message: 'The file starts as a HEIC photo but is not a readable one.' };
  if (!answer.data) {
    const megapixels = ((answer.width * answer.height) / 1e6).toFixed(1);
    return { ok: false, message: `The photo is ${megapixels} megapixels; at most ${maxPixels / 1e6} are taken.` };
  }
  const pixels = Buffer.from(answer.data.buffer, answer.data.byteOffset, answer.data.byteLength);
  return { ok: true, width: answer.width, height: answer.height, pixels };
}
