import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCleaningGate } from '@partner-task-kit/server/uploads/cleaning-gate';
import { cleanUpload } from '@partner-task-kit/server/uploads/upload-cleaning';

/**
 * One received file checked and cleaned as the server does it (the gate's settings, then `cleanUpload`), alone in a
 * process: the floor of the upload benchmark. Cleaned once to warm up, then again measured: the RSS it adds at its peak
 * (VmHWM, reset before), its CPU and its time. `node --import tsx packages/kit-tests/bench/cleaning-alone.ts <file>` prints one JSON line.
 */
const file = process.argv[2];
if (!file) throw new Error('usage: packages/kit-tests/bench/cleaning-alone.ts <file>');
const directory = mkdtempSync(join(tmpdir(), 'ptk-bench-clean-'));
try {
  const turn = createCleaningGate();
  const clean = async (name: string) => {
    const cleaning = await turn(() => cleanUpload(file, join(directory, name), ['image/jpeg', 'image/png', 'application/pdf']));
    if (!cleaning.ok) throw new Error(`the sample was refused: ${cleaning.message}`);
  };
  await clean('warm-up');
  writeFileSync('/proc/self/clear_refs', '5');
  const rssBeforeKb = memoryKb('VmRSS');
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await clean('measured');
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    JSON.stringify({
      rssRiseMb: Math.round((memoryKb('VmHWM') - rssBeforeKb) / 1024),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      wallMs: Math.round(wallMs),
    }),
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}

function memoryKb(field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/self/status`);
  return Number(match[1]);
}
