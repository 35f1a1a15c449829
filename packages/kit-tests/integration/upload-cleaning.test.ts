import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanUpload } from '@partner-task-kit/server/uploads/upload-cleaning';

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
    const cleaning = await cleanUpload(join(directory, 'bomb'), join(directory, 'cleaned'), ['image/jpeg']);
    expect(cleaning).toEqual({ ok: false, message: 'The image is 64.0 megapixels; at most 50 are taken.' });
    expect(readdirSync(directory)).toEqual(['bomb']);
  });

  it('takes a 48 MP photo, the largest a phone takes', async () => {
    const photo = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    writeFileSync(join(directory, 'photo'), photo);
    const cleaning = await cleanUpload(join(directory, 'photo'), join(directory, 'cleaned'), ['image/jpeg']);
    expect(cleaning).toMatchObject({ ok: true, file: { contentType: 'image/jpeg' } });
    expect(await sharp(join(directory, 'cleaned')).metadata()).toMatchObject({ width: 8000, height: 6000 });
  });
});
