import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openSessions, runPaced } from './api-load';
import { benchProgress, machine, round, spawnEmulator } from './bench-support';
import { productionLikeEnv, startServerProcess } from './bench-server-process';
import { prunableLeft, seedDeliveredHistory } from './retention-seed';

const progress = benchProgress('retention');

/**
 * `node --import tsx packages/kit-tests/bench/retention.ts`: the step endpoint's p99 at 100 requests/s, paced, on a server whose outbox
 * holds 1,000,000 delivered rows past OUTBOX_RETENTION_DAYS, which its retention job prunes as it serves, against the
 * same server on a copy of the same database with nothing due (a retention of 100 years). The server runs as in
 * production (packages/kit-tests/bench/api.ts): SQLite NORMAL, the compiled server, the emulator in a process of its own as the platform.
 * The two alternate, run after run, each restarted for its run, so a machine whose load drifts weighs on both alike;
 * the medians are compared. Bounded in time: past --max-seconds it stops with exit code 1.
 */
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    rate: { type: 'string', default: '100' },
    duration: { type: 'string', default: '10' },
    runs: { type: 'string', default: '7' },
    sessions: { type: 'string', default: '300' },
    'max-seconds': { type: 'string', default: '900' },
  },
});
const rows = Number(values.rows);
const rate = Number(values.rate);
const duration = Number(values.duration);
const runs = Number(values.runs);
const started = performance.now();
const bound = setTimeout(
  () => {
    progress(`over its bound of ${values['max-seconds']} s: stopped`);
    process.exit(1);
  },
  Number(values['max-seconds']) * 1000,
);
bound.unref();
const metricsToken = randomBytes(32).toString('base64url');

const directory = mkdtempSync(join(tmpdir(), 'ptk-bench-retention-'));
const emulator = await spawnEmulator();
try {
  const template = join(directory, 'template.db');
  const seeded = await seedDeliveredHistory(template, rows);
  progress(`seeded ${rows} delivered rows in ${seconds(started)} s`);
  const variants = [variant('nothing-due', '36500'), variant('pruning', '30')];
  const p99s: Record<string, number[]> = { 'nothing-due': [], pruning: [] };
  let non2xx = 0;
  let prunedDuringRuns = 0;
  let pruningSeconds = 0;
  for (let run = 0; run < runs; run += 1) {
    for (const each of variants) {
      const server = await startServerProcess(each.env, { compiled: true });
      try {
        each.idle ??= await openSessions(server.url, Number(values.sessions));
        await runPaced(server.url, each.idle, rate, 2);
        const leftBefore = prunableLeft(each.filename, seeded);
        const runStarted = performance.now();
        const result = await runPaced(server.url, each.idle, rate, duration);
        const left = prunableLeft(each.filename, seeded);
        p99s[each.name]!.push(result.p99);
        non2xx += result.non2xx;
        if (each.name === 'pruning') {
          if (left === 0) throw new Error('the pruning ended before this run did: seed more rows (--rows)');
          prunedDuringRuns += leftBefore - left;
          pruningSeconds += (performance.now() - runStarted) / 1000;
        }
        progress(`run ${run + 1}, ${each.name}: p99 ${result.p99} ms (p50 ${result.p50}); ${leftBefore - left} pruned, ${left} left`);
      } finally {
        await server.stop();
      }
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const without = median(p99s['nothing-due']!);
  const pruning = median(p99s.pruning!);
  console.log(
    JSON.stringify({
      suite: 'retention',
      database: 'sqlite',
      sqliteSynchronous: 'NORMAL',
      rows,
      ratePerSecond: rate,
      runs,
      durationSeconds: duration,
      stepP99WithoutPruningMs: without,
      stepP99WhilePruningMs: pruning,
      stepP99RunsWithoutPruningMs: p99s['nothing-due'],
      stepP99RunsWhilePruningMs: p99s.pruning,
      ratio: round(pruning / without, 2),
      rowsPrunedDuringRuns: prunedDuringRuns,
      prunedRowsPerSecond: round(prunedDuringRuns / pruningSeconds, 0),
      non2xx,
      benchSeconds: seconds(started),
      machine: machine(),
    }),
  );

  /** A server on its own copy of the seeded file; its sessions are opened at its first start and kept. */
  function variant(name: string, retentionDays: string) {
    const filename = join(directory, `${name}.db`);
    copyFileSync(template, filename);
    const env = {
      DATABASE_URL: filename,
      OUTBOX_RETENTION_DAYS: retentionDays,
      ...productionLikeEnv({ emulatorUrl: emulator.url, metricsToken, logLevel: 'info' }),
    };
    return { name, filename, env, idle: undefined as string[] | undefined };
  }
} finally {
  await emulator.stop();
  rmSync(directory, { recursive: true, force: true });
}

function seconds(since: number): number {
  return round((performance.now() - since) / 1000, 0);
}
