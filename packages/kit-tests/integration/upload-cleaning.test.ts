import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCleaningPool } from '@partner-task-kit/server/uploads/cleaning-pool';
import { countJpegScans } from '@partner-task-kit/server/uploads/jpeg-scans';
import { cleanUpload, type Decode } from '@partner-task-kit/server/uploads/upload-cleaning';
import { scanBomb } from '../helpers/scan-bomb';

const pool = createCleaningPool({ processes: 1, memoryBytes: 64 * 1024 * 1024, timeoutMs: 60_000 });
const decode: Decode = (job, memoryBytes) => pool.run('test', job, memoryBytes);
afterAll(() => pool.close());

describe('cleaning an uploaded image', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-cleaning-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('refuses a JPEG of more pixels than the limit from its header, before decoding it', async () => {
    // 8000x8000 of one colour: some 400 KB on the wire, 192 MB once decoded.
    const bomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    writeFileSync(join(directory, 'bomb'), bomb);
    const cleaning = await cleanUpload(join(directory, 'bomb'), join(directory, 'cleaned'), ['image/jpeg'], decode);
    expect(cleaning).toEqual({ ok: false, message: 'The image is 64.0 megapixels; at most 50 are taken.' });
    expect(readdirSync(directory)).toEqual(['bomb']);
  });

  it('takes a 48 MP photo, the largest a phone takes', async () => {
    const photo = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    writeFileSync(join(directory, 'photo'), photo);
    const cleaning = await cleanUpload(join(directory, 'photo'), join(directory, 'cleaned'), ['image/jpeg'], decode);
    expect(cleaning).toMatchObject({ ok: true, file: { contentType: 'image/jpeg' } });
    expect(await sharp(join(directory, 'cleaned')).metadata()).toMatchObject({ width: 8000, height: 6000 });
  });

  it('refuses a progressive JPEG of thousands of scans from its headers, before decoding it', async () => {
    // 48 MP of one grey and 3,000 scans more, some 500 KB: about 10 s of a core to decode here.
    const bomb = await scanBomb({ width: 8000, height: 6000, extraScans: 3000 });
    writeFileSync(join(directory, 'bomb'), bomb);
    const started = performance.now();
    const cleaning = await cleanUpload(join(directory, 'bomb'), join(directory, 'cleaned'), ['image/jpeg'], decode);
    expect(cleaning).toEqual({ ok: false, message: expect.stringMatching(/^The JPEG is made of more than 100 scans/) });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(readdirSync(directory)).toEqual(['bomb']);
  });

  it('takes the progressive JPEGs of libjpeg and mozjpeg, and one of 100 scans', async () => {
    const image = sharp({
      create: { width: 600, height: 400, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 30 } },
    });
    const files = {
      progressive: await image.clone().jpeg({ progressive: true }).toBuffer(),
      'mozjpeg scans': await image.clone().jpeg({ optimiseScans: true }).toBuffer(),
      '100 scans': await scanBomb({ width: 600, height: 400, extraScans: 90 }),
    };
    for (const [name, bytes] of Object.entries(files)) {
      writeFileSync(join(directory, name), bytes);
      const cleaning = await cleanUpload(join(directory, name), join(directory, `${name} cleaned`), ['image/jpeg'], decode);
      expect({ name, ok: cleaning.ok }).toEqual({ name, ok: true });
    }
  });
});

describe("counting a JPEG's scans", () => {
  it('counts every scan up to one past the bound, across the windows it reads the file in', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'ptk-scans-'));
    try {
      const noisy = {
        width: 1200,
        height: 900,
        channels: 3,
        background: '#888',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      } as const;
      const files = {
        baseline: await sharp({ create: noisy }).jpeg({ quality: 100 }).toBuffer(),
        progressive: await sharp({ create: noisy }).jpeg({ quality: 100, progressive: true }).toBuffer(),
        bomb: await scanBomb({ width: 640, height: 480, extraScans: 2000 }),
      };
      // Bytes that cross the 64 KB windows: entropy-coded data full of 0xFF.
      expect(files.progressive.length).toBeGreaterThan(1024 * 1024);
      for (const [name, bytes] of Object.entries(files)) writeFileSync(join(directory, name), bytes);
      const count = (name: string, bound: number) => countJpegScans(join(directory, name), bound);
      expect([await count('baseline', 100), await count('progressive', 100), await count('bomb', 100_000)]).toEqual([1, 10, 2010]);
      expect(await count('bomb', 100)).toBe(101);
      // Cut inside its last scan: the count ends with the file, as the decoder's reading does.
      writeFileSync(join(directory, 'cut'), files.progressive.subarray(0, files.progressive.length - 1000));
      expect(await count('cut', 100)).toBe(10);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
