// Sums the JSON reports that vitest and Playwright wrote into one "N passed, N failed[, N skipped]" line, the last line
// of the CI's output. Before it, one line names what the counts alone would hide: a stage that failed without a
// failing test to count (the type check, lint, a runner that crashed), which counts as one failure so the line never
// reads as green when the run was not; and a stage that did not run, whose tests count as skipped when
// scripts/run-tests.mjs could list them. The stages' outcomes come from stages.json, which that script writes.
//
// Usage: node .ci/summarize.mjs <report directory> <exit status of npm test>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir = '.', exitStatus = '0'] = process.argv.slice(2);

/** The counts of a vitest report (the unit stage's, the packed packages' and the container stage's). */
const vitestCounts = (report) => {
  // A file that failed as a whole (an import that threw, a failing beforeAll) may have no failing test of its own:
  // it counts as one failure, as its tests never ran.
  const filesFailedWithoutTest = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + filesFailedWithoutTest,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
};

/** Test counts of one report; undefined when the file is absent or unreadable. */
const COUNTERS = {
  'vitest.json': vitestCounts,
  'vitest-container.json': vitestCounts,
  'vitest-packed.json': vitestCounts,
  'playwright.json': ({ stats }) => ({
    passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0),
    failed: stats?.unexpected ?? 0,
    skipped: stats?.skipped ?? 0,
  }),
};

function readJson(file) {
  try {
    return JSON.parse(readFileSync(join(dir, file), 'utf8'));
  } catch {
    return undefined;
  }
}

function countsOf(reportFile) {
  const report = readJson(reportFile);
  return report === undefined ? undefined : COUNTERS[reportFile]?.(report);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const add = (counts) => {
  for (const key of Object.keys(totals)) totals[key] += counts[key];
};
/** What the line before the totals says, one phrase per stage worth naming. */
const notes = [];

const stages = readJson('stages.json')?.stages;
if (Array.isArray(stages)) {
  for (const stage of stages) {
    const counts = stage.report === undefined ? undefined : countsOf(stage.report);
    if (counts !== undefined && stage.outcome !== 'not run') add(counts);
    const why = stage.reason === undefined ? '' : ` (${stage.reason})`;
    if (stage.outcome === 'not run') {
      if (typeof stage.tests === 'number') {
        totals.skipped += stage.tests;
        notes.push(`${stage.name} not run${why}: its ${stage.tests} test${stage.tests === 1 ? '' : 's'} counted as skipped`);
      } else {
        notes.push(`${stage.name} not run${why}`);
      }
    } else if (stage.outcome === 'running') {
      // The runner itself died during this stage: whatever it reported is counted, and the stage is a failure.
      totals.failed += 1;
      notes.push(`${stage.name} did not finish: counted as 1 failed`);
    } else if (stage.outcome === 'failed' && (counts === undefined || counts.failed === 0)) {
      totals.failed += 1;
      const detail = stage.report === undefined ? '' : counts === undefined ? ' with no report' : ' with no failing test in its report';
      notes.push(`${stage.name} failed${detail}${why}: counted as 1 failed`);
    } else if (stage.outcome === 'passed' && stage.report !== undefined && counts === undefined) {
      notes.push(`${stage.name} passed but left no ${stage.report}: its tests are not counted`);
    }
  }
} else {
  // No stage records (npm test is not scripts/run-tests.mjs, or it never started): the reports that exist.
  for (const reportFile of Object.keys(COUNTERS)) {
    const counts = countsOf(reportFile);
    if (counts !== undefined) add(counts);
  }
  notes.push('no stages.json: which stages ran is unknown');
}

if (Number(exitStatus) !== 0 && totals.failed === 0) {
  totals.failed = 1;
  notes.push(`npm test exited with ${exitStatus} with no failure counted: counted as 1 failed`);
}

if (notes.length > 0) console.log(`stages: ${notes.join('; ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped > 0 ? `, ${totals.skipped} skipped` : ''}`);
