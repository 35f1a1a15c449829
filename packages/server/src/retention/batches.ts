import type { StoreDialect } from '../store/database-schema.ts';

/**
 * Every deletion of the retention and the erasure goes in batches, each in its own short transaction, with a pause
 * between them (docs/operations.md#retention). On SQLite a statement runs on the event loop (better-sqlite3 is
 * synchronous): a batch of 100 outbox rows with their five index entries holds it for milliseconds, which a step
 * request arriving meanwhile waits for (packages/kit-tests/bench/retention.ts measures the step's p99 while pruning).
 * On Postgres no request waits on a batch but for the rows it locks: 500.
 */
export function batchRows(dialect: StoreDialect): number {
  return dialect === 'sqlite' ? 100 : 500;
}

export interface BatchPacing {
  /** The shortest pause between two batches. */
  minPauseMs: number;
  /**
   * The pause is at least this many times the batch's own time, so the job takes at most 1 / (1 + this) of the
   * database's time, and slows down by itself when the disk does (a checkpoint's fsync, another load).
   */
  pausePerBusy: number;
  /** Asked before each batch: a stopping server ends the walk between two batches. */
  stopped?: () => boolean;
}

/**
 * The pacing of the server's job and of the commands, beside a server that serves requests: a pause of nine times the
 * batch's time, so at most a tenth of the database's, and at least 20 ms. On SQLite at least 500 ms, so at most 200
 * rows a second: a batch holds the event loop for milliseconds, and every row deleted grows the WAL, whose checkpoint
 * holds writers back the more often the faster it grows. Twice that rate raised the step's p99 more: the rarer the
 * batches, the fewer requests wait on one, which is what a p99 is made of. BENCHMARKS.md has the step's p99 while
 * pruning at this pace beside its p99 without (packages/kit-tests/bench/retention.ts).
 */
export function pacingFor(dialect: StoreDialect): BatchPacing {
  return { minPauseMs: dialect === 'sqlite' ? 500 : 20, pausePerBusy: 9 };
}

/**
 * Runs `step` until it reports nothing more to do (0) or the pacing says stop, pausing between steps; returns the sum
 * of what the steps reported.
 */
export async function inBatches(step: () => Promise<number>, pacing: BatchPacing): Promise<number> {
  let total = 0;
  while (!pacing.stopped?.()) {
    const started = performance.now();
    const done = await step();
    if (done === 0) break;
    total += done;
    await pauseAfter(started, pacing);
  }
  return total;
}

/** The pause after a batch begun at `started` (performance.now()), as `pacing` says. */
export function pauseAfter(started: number, pacing: BatchPacing): Promise<void> {
  return pause(Math.max(pacing.minPauseMs, (performance.now() - started) * pacing.pausePerBusy));
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
