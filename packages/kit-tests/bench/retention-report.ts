/** One line of packages/kit-tests/bench/retention.ts. */
interface RetentionResult {
  rows: number;
  ratePerSecond: number;
  runs: number;
  stepP99WithoutPruningMs: number;
  stepP99WhilePruningMs: number;
  stepP99RunsWithoutPruningMs: number[];
  stepP99RunsWhilePruningMs: number[];
  ratio: number;
  prunedRowsPerSecond: number;
}

/** BENCHMARKS.md's rows of the retention suite: the step p99 while pruning beside the same without, and the pace. */
export function retentionRows(result: Record<string, unknown>) {
  const r = result as unknown as RetentionResult;
  const where = `Retention, SQLite NORMAL: step p99 at ${r.ratePerSecond} req/s (paced) while ${r.rows.toLocaleString('en')} delivered rows are pruned / without pruning`;
  return [
    {
      figure: where,
      value: `${r.stepP99WhilePruningMs} / ${r.stepP99WithoutPruningMs} ms (×${r.ratio}); medians of ${r.runs} alternating runs: ${r.stepP99RunsWhilePruningMs.join(' / ')} and ${r.stepP99RunsWithoutPruningMs.join(' / ')} ms`,
      target: '≤ 1.5×',
      met: r.ratio <= 1.5,
    },
    { figure: 'Retention, SQLite NORMAL: rows pruned per second meanwhile', value: String(r.prunedRowsPerSecond), target: '' },
  ];
}
