import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCleaningPool, type CleaningPool } from '@partner-task-kit/server/uploads/cleaning-pool';
import { cleanUpload } from '@partner-task-kit/server/uploads/upload-cleaning';

const MB = 1024 * 1024;

/** The anonymous memory, kB, of this process's children: the pool's processes (their file-backed pages are shared). */
function childrenAnonKb(): number {
  const children = readdirSync(`/proc/${process.pid}/task`).flatMap((thread) =>
    readFileSync(`/proc/${process.pid}/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return children.reduce((total, pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      return total + Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0) + Number(/RssShmem:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      return total;
    }
  }, 0);
}

/** A photo stored sideways (EXIF orientation 6), which cleaning turns upright: decoded whole, never a strip at a time. */
const sidewaysPhoto = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#4a7' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();

/**
 * The pool as a server of two cores runs it by default (docs/configuration.md#uploads): two processes, 56 MB for the
 * decodings at once. Real sharp on real files, through `cleanUpload`, which estimates each file's memory from its
 * header: five 12 MP photos stored sideways, each from its task, and a small one from a sixth task sent last.
 */
describe('the cleaning pool under its memory bound', () => {
  let directory: string;
  let pool: CleaningPool;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-cleaning-memory-'));
    writeFileSync(join(directory, 'large'), await sidewaysPhoto(4032, 3024));
    for (let index = 1; index <= 5; index += 1) copyFileSync(join(directory, 'large'), join(directory, `large ${index}`));
    writeFileSync(join(directory, 'small'), await sidewaysPhoto(800, 600));
    pool = createCleaningPool({ processes: 2, memoryBytes: 56 * MB, timeoutMs: 60_000 });
  });
  afterAll(async () => {
    await pool.close();
    rmSync(directory, { recursive: true, force: true });
  });

  /** Files handed to the pool so far: a file reaches it once its header is read, the smaller ones sooner. */
  let handed = 0;
  const clean = (task: string, name: string) =>
    cleanUpload(join(directory, name), join(directory, `${name} cleaned`), ['image/jpeg'], (job, memoryBytes) => {
      handed += 1;
      return pool.run(task, job, memoryBytes);
    });

  it('decodes one 12 MP photo turned upright at a time, and answers the small one before the large ones that came first', async () => {
    // Both processes started and each past its first decoding: what they hold from here on is the photos'.
    pool.warm();
    await Promise.all([clean('warm 1', 'small'), clean('warm 2', 'small')]);
    const idleKb = childrenAnonKb();
    let highestKb = idleKb;
    const sampler = setInterval(() => (highestKb = Math.max(highestKb, childrenAnonKb())), 5);

    const answered: string[] = [];
    const send = (name: string, index: number) =>
      clean(`task ${index}`, name).then((cleaning) => {
        answered.push(name);
        return cleaning.ok;
      });
    const large = ['large 1', 'large 2', 'large 3', 'large 4', 'large 5'];
    handed = 0;
    const cleanings = large.map(send);
    // The small one comes to the pool last, as one line in the order of arrival would answer it.
    await expect.poll(() => handed, { interval: 1 }).toBe(large.length);
    cleanings.push(send('small', large.length));
    expect(await Promise.all(cleanings)).toEqual([...large, 'small'].map(() => true));
    clearInterval(sampler);

    // The small photo fitted beside the first large one; the second large one waited for the first to end.
    expect(answered.indexOf('small')).toBeLessThan(2);
    // Two 12 MP photos turned upright at once hold some 90 MB above idle; one, with the small one, some 50.
    expect((highestKb - idleKb) / 1024).toBeLessThan(64);
    expect((highestKb - idleKb) / 1024).toBeGreaterThan(30);
  });
});
