import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import * as tus from 'tus-js-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findUpload } from '@partner-task-kit/server/store/uploads.repository';
import { directoryUploadFiles } from '@partner-task-kit/server/uploads/upload-files';
import type { FileRule } from '@partner-task-kit/workflow/file-field';
import { bearer, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';

/**
 * A phone's HEIC photo taken sideways (packages/kit-tests/fixtures/heic/README.md): 64x32 as stored, top half red and bottom half
 * blue, with irot turning it a quarter clockwise on display (32x64, red on the right), and EXIF with a make and a
 * GPS position.
 */
const sidewaysPath = join(import.meta.dirname, '../fixtures/heic/sideways.heic');
const sideways = readFileSync(sidewaysPath);
const twoPictures = readFileSync(join(import.meta.dirname, '../fixtures/heic/two-pictures.heic'));

/**
 * The fields the uploads are for: rules of the test's own, on the first step of the default workflow, where a new task
 * is (a file is taken for the step at hand only).
 */
const rules: Record<string, FileRule> = {
  photo: { types: ['image/jpeg', 'image/png', 'image/heic'], maxBytes: 10 * 1024 * 1024 },
  scan: { types: ['image/jpeg'], maxBytes: 10 * 1024 * 1024 },
};
const heicFileRuleOf = (_workflowId: string, stepId: string, field: string) => (stepId === 'welcome' ? rules[field] : undefined);

describe.each(testDatabases)('HEIC photos uploaded over tus on $name', (engine) => {
  let t: TaskApp;
  let directory: string;
  let endpoint: string;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-upload-heic-'));
    t = await openTaskApp({ engine, uploadFiles: directoryUploadFiles(directory), uploads: { fileRuleOf: heicFileRuleOf } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    endpoint = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/task/uploads`;
  });
  afterEach(async () => {
    await t.close();
    rmSync(directory, { recursive: true, force: true });
  });

  /** Runs one tus upload to its end, as the page does with a photo from an iPhone: the id, or the refusal. */
  async function upload(file: Buffer, field: string) {
    const session = await openSession(t.app);
    return new Promise<{ ok: true; id: string } | { ok: false; status: number | undefined; body: string | undefined }>((resolve) => {
      const running = new tus.Upload(file, {
        endpoint,
        headers: bearer(session.token),
        metadata: { filename: 'IMG_0001.HEIC', filetype: 'image/heic', stepId: 'welcome', field },
        retryDelays: [],
        storeFingerprintForResuming: false,
        onSuccess: () => resolve({ ok: true, id: running.url!.split('/').pop()! }),
        onError: (error) => {
          const response = (error as tus.DetailedError).originalResponse;
          resolve({ ok: false, status: response?.getStatus(), body: response?.getBody() });
        },
      });
      running.start();
    });
  }

  async function expectNothingKept(result: Awaited<ReturnType<typeof upload>>, message: RegExp) {
    expect(result).toMatchObject({ ok: false, status: 415 });
    expect(JSON.parse((result as { body: string }).body)).toMatchObject({ error: { code: 'unsupported_file_type', message } });
    expect(readdirSync(directory)).toEqual([]);
    expect(await t.database.store.db.selectFrom('uploads').selectAll().execute()).toEqual([]);
  }

  it('converts a HEIC photo for a field accepting HEIC to a JPEG, right way up, without its EXIF or GPS position', async () => {
    expect(sideways.toString('latin1')).toContain('PhoneMaker');
    expect(sideways.length).toBeLessThan(4096);

    const result = await upload(sideways, 'photo');
    if (!result.ok) throw new Error(`refused: ${result.status} ${result.body}`);
    const stored = readFileSync(join(directory, result.id));
    const kept = await sharp(stored).metadata();
    expect(kept.format).toBe('jpeg');
    expect([kept.exif, kept.xmp, kept.icc, kept.orientation]).toEqual([undefined, undefined, undefined, undefined]);
    expect(stored.toString('latin1')).not.toContain('PhoneMaker');

    // Turned a quarter clockwise, once (by irot, not again by the EXIF orientation): 32 wide, the red half on the right.
    const { data, info } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([32, 64]);
    const colourAt = (x: number, y: number) => {
      const at = (y * info.width + x) * info.channels;
      const [red, , blue] = [data[at]!, data[at + 1]!, data[at + 2]!];
      return red > 150 && blue < 100 ? 'red' : blue > 150 && red < 100 ? 'blue' : `rgb(${red}, ${blue})`;
    };
    expect([colourAt(4, 4), colourAt(27, 4), colourAt(4, 60), colourAt(27, 60)]).toEqual(['blue', 'red', 'blue', 'red']);

    // Described as what is stored, so that a field accepting HEIC takes it in a step answer.
    expect(await findUpload(t.database.store.db, result.id)).toMatchObject({
      state: 'completed',
      contentType: 'image/jpeg',
      bytes: stored.length,
      sha256: createHash('sha256').update(stored).digest('hex'),
    });
  });

  it('refuses a HEIC photo for a field that takes only JPEG, and keeps nothing of it', async () => {
    await expectNothingKept(await upload(sideways, 'scan'), /image\/heic; this field accepts image\/jpeg/);
  });

  it('refuses a HEIC photo whose picture is cut short, and keeps nothing of it', async () => {
    await expectNothingKept(await upload(sideways.subarray(0, sideways.length - 120), 'photo'), /not a readable one/);
  });

  it('refuses a HEIC file of two pictures rather than guess which one is the photo', async () => {
    await expectNothingKept(await upload(twoPictures, 'photo'), /holds 2 pictures/);
  });
});
