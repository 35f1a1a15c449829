import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DecodingJob } from '@partner-task-kit/server/uploads/cleaning-child';
import { createCleaningPool, type CleaningPool } from '@partner-task-kit/server/uploads/cleaning-pool';
import { scanBomb } from '../helpers/scan-bomb';

/** A phone's HEIC photo taken sideways, 64x32 stored, 32x64 shown (packages/kit-tests/fixtures/heic/README.md). */
const sidewaysHeic = join(import.meta.dirname, '../fixtures/heic/sideways.heic');
const MB = 1024 * 1024;
const jpeg = { quality: 90, optimiseCoding: false };

/** This process's cleaning processes: its children running the pool's code (cleaning-child.ts), by pid. */
function cleaningProcesses(): number[] {
  const children = readdirSync(`/proc/${process.pid}/task`).flatMap((thread) =>
    readFileSync(`/proc/${process.pid}/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('heic-decode');
    } catch {
      return false;
    }
  });
}

describe('the cleaning pool', () => {
  let directory: string;
  let pool: CleaningPool | undefined;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-cleaning-pool-'));
  });
  afterEach(async () => {
    await pool?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const imageJob = (name: string): DecodingJob => ({
    kind: 'image',
    path: join(directory, name),
    cleanedPath: join(directory, `${name}.cleaned`),
    format: 'jpeg',
    maxPixels: 50_000_000,
    jpeg,
  });

  it('kills a decoding past its deadline, with its process, and serves the next file in a new one', async () => {
    pool = createCleaningPool({ processes: 1, memoryBytes: 64 * MB, timeoutMs: 300 });
    // 48 MP and 90 scans more: within the scan bound, and still over half a second of a core to decode.
    writeFileSync(join(directory, 'slow'), await scanBomb({ width: 8000, height: 6000, extraScans: 90 }));
    writeFileSync(
      join(directory, 'small'),
      await sharp({ create: { width: 16, height: 16, channels: 3, background: '#c33' } })
        .jpeg()
        .toBuffer(),
    );

    expect(await pool.run('a', imageJob('small'), MB)).toEqual({ ok: true });
    const [first, ...others] = cleaningProcesses();
    expect(others).toEqual([]);
    const started = performance.now();
    expect(await pool.run('a', imageJob('slow'), MB)).toEqual({ ok: false, reason: 'deadline' });
    expect(performance.now() - started).toBeLessThan(1_000);
    await expect.poll(() => cleaningProcesses().includes(first!)).toBe(false);

    expect(await pool.run('b', imageJob('small'), MB)).toEqual({ ok: true });
    const now = cleaningProcesses();
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(first);
  });

  it('decodes as many files at once as it has processes, and ends them all when closed', async () => {
    pool = createCleaningPool({ processes: 2, memoryBytes: 64 * MB, timeoutMs: 60_000 });
    const photo = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#777' } })
      .jpeg()
      .toBuffer();
    for (const name of ['one', 'two', 'three']) writeFileSync(join(directory, name), photo);
    const answers = Promise.all(['one', 'two', 'three'].map((name, index) => pool!.run(`task ${index}`, imageJob(name), MB)));
    await expect.poll(() => cleaningProcesses().length).toBe(2);
    expect(await answers).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(cleaningProcesses()).toHaveLength(2);
    await pool.close();
    expect(cleaningProcesses()).toEqual([]);
    await expect(pool.run('late', imageJob('one'), MB)).rejects.toThrow('closed');
  });

  it("converts a HEIC photo, refuses one of more pixels than the limit before decoding it, and ends each one's process", async () => {
    pool = createCleaningPool({ processes: 1, memoryBytes: 64 * MB, timeoutMs: 60_000 });
    const heicJob = (maxPixels: number): DecodingJob => ({
      kind: 'heic',
      path: sidewaysHeic,
      cleanedPath: join(directory, 'cleaned'),
      maxPixels,
      jpeg,
    });
    expect(await pool.run('a', heicJob(32 * 64), MB)).toEqual({ ok: true });
    expect(await sharp(join(directory, 'cleaned')).metadata()).toMatchObject({ format: 'jpeg', width: 32, height: 64 });
    // libheif's memory, once grown for a photo, stays with its process: that one is ended.
    await expect.poll(() => cleaningProcesses()).toEqual([]);
    expect(await pool.run('a', heicJob(32 * 64 - 1), MB)).toEqual({ ok: false, reason: 'pixels', width: 32, height: 64 });
  });
});
