import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { cleanUpload, type Decode } from '@partner-task-kit/server/uploads/upload-cleaning';

/** The image part of packages/server/src/uploads/cleaning-child.ts, as it runs there, in this process. */
const decodeHere: Decode = async (job) => {
  if (job.kind !== 'image') throw new Error('the floor is measured for JPEG, PNG and PDF');
  sharp.cache(false);
  sharp.concurrency(1);
  const image = sharp(job.path, { failOn: 'error', sequentialRead: true, limitInputPixels: job.maxPixels }).rotate();
  await (job.format === 'png' ? image.png() : image.jpeg(job.jpeg)).toFile(job.cleanedPath);
  return { ok: true };
};

/**
 * One received file checked and cleaned alone: the floor of the upload benchmark. The same sharp pipeline as the
 * server's, run in this process (the server runs it in a process of its pool, cleaning-pool.ts): `cleanUpload` with
 * the image part of the pool's code (cleaning-child.ts) as its decoder, so the figure is the work, without a process's
 * start or its messages. Cleaned once to warm up, then again measured: the RSS it adds at its peak (VmHWM, reset
 * before), its CPU and its time. `node --import tsx packages/kit-tests/bench/cleaning-alone.ts <file>` prints one JSON line.
 */
const file = process.argv[2];
if (!file) throw new Error('usage: packages/kit-tests/bench/cleaning-alone.ts <file>');
const directory = mkdtempSync(join(tmpdir(), 'ptk-bench-clean-'));
try {
  const clean = async (name: string) => {
    const cleaning = await cleanUpload(file, join(directory, name), ['image/jpeg', 'image/png', 'application/pdf'], decodeHere);
    if (!cleaning.ok) throw new Error(`the sample was refused: ${cleaning.message}`);
  };
  await clean('warm-up');
  writeFileSync('/proc/self/clear_refs', '5');
  const rssBeforeKb = ownMemoryKb('VmRSS');
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await clean('measured');
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    JSON.stringify({
      rssRiseMb: Math.round((ownMemoryKb('VmHWM') - rssBeforeKb) / 1024),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      wallMs: Math.round(wallMs),
    }),
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}

function ownMemoryKb(field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/self/status`);
  return Number(match[1]);
}
