import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** .ci/summarize.mjs on a report directory written by each test, as .ci/run calls it; its lines of output. */
function summarize(exitStatus: number): string[] {
  return execFileSync(process.execPath, ['.ci/summarize.mjs', directory, String(exitStatus)], { encoding: 'utf8' })
    .trimEnd()
    .split('\n');
}

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-ci-summary-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const writeReport = (file: string, content: unknown) => writeFileSync(join(directory, file), JSON.stringify(content));

function vitestReport(passed: number, failed: number, options: { skipped?: number; fileFailedAlone?: boolean } = {}) {
  const testResults = [
    {
      name: 'packages/kit-tests/unit/a.test.ts',
      status: failed > 0 ? 'failed' : 'passed',
      assertionResults: [
        ...Array.from({ length: passed }, () => ({ status: 'passed' })),
        ...Array.from({ length: failed }, () => ({ status: 'failed' })),
      ],
    },
    ...(options.fileFailedAlone ? [{ name: 'packages/kit-tests/unit/broken.test.ts', status: 'failed', assertionResults: [] }] : []),
  ];
  writeReport('vitest.json', {
    numPassedTests: passed,
    numFailedTests: failed,
    numPendingTests: options.skipped ?? 0,
    numTodoTests: 0,
    testResults,
  });
}

function playwrightReport(expected: number, unexpected: number, flaky = 0, skipped = 0) {
  writeReport('playwright.json', { stats: { expected, unexpected, flaky, skipped }, errors: [] });
}

type Outcome = 'passed' | 'failed' | 'not run' | 'running';
interface StageRecord {
  outcome: Outcome;
  reason?: string;
  tests?: number;
}

/** stages.json as scripts/run-tests.mjs writes it: the stages in order; the container image's when given. */
function stages(typecheck: StageRecord, lint: StageRecord, unit: StageRecord, e2e: StageRecord, container?: StageRecord) {
  writeReport('stages.json', {
    stages: [
      { id: 'typecheck', name: 'type check', command: 'npm run typecheck', ...typecheck },
      { id: 'lint', name: 'lint', command: 'npm run lint', ...lint },
      { id: 'unit', name: 'unit and integration tests', command: 'npm run test:unit', report: 'vitest.json', ...unit },
      { id: 'e2e', name: 'browser tests', command: 'npm run test:e2e', report: 'playwright.json', ...e2e },
      ...(container
        ? [{ id: 'container', name: 'container image', command: 'npm run test:container', report: 'vitest-container.json', ...container }]
        : []),
    ],
  });
}

const passed: StageRecord = { outcome: 'passed' };
const failed: StageRecord = { outcome: 'failed' };

describe('.ci/summarize.mjs: the last line of the CI', () => {
  it('sums both runners into one line, and says nothing more when every stage passed', () => {
    stages(passed, passed, passed, passed);
    vitestReport(709, 0);
    playwrightReport(37, 0, 1);
    expect(summarize(0)).toEqual(['747 passed, 0 failed']);
  });

  it('counts the container image stage from its own vitest report, its test skipped without an engine as skipped', () => {
    stages(passed, passed, passed, passed, passed);
    vitestReport(709, 0);
    playwrightReport(37, 0);
    writeReport('vitest-container.json', { numPassedTests: 0, numFailedTests: 0, numPendingTests: 1, numTodoTests: 0, testResults: [] });
    expect(summarize(0)).toEqual(['746 passed, 0 failed, 1 skipped']);
  });

  it('counts the tests of both runners when vitest failed: the browser tests ran all the same', () => {
    stages(passed, passed, failed, passed);
    vitestReport(709, 1);
    playwrightReport(38, 0);
    expect(summarize(1)).toEqual(['747 passed, 1 failed']);
  });

  it('names the browser tests that did not run and counts them as skipped', () => {
    stages(passed, passed, failed, { outcome: 'not run', reason: '--fail-fast: unit and integration tests failed', tests: 38 });
    vitestReport(709, 1);
    expect(summarize(1)).toEqual([
      'stages: browser tests not run (--fail-fast: unit and integration tests failed): its 38 tests counted as skipped',
      '709 passed, 1 failed, 38 skipped',
    ]);
  });

  it('counts a failed type check or lint as one failure each, and names them', () => {
    stages(failed, failed, passed, passed);
    vitestReport(709, 0);
    playwrightReport(38, 0);
    expect(summarize(1)).toEqual([
      'stages: type check failed: counted as 1 failed; lint failed: counted as 1 failed',
      '747 passed, 2 failed',
    ]);
  });

  it('names a stage not run whose tests could not be counted, without inventing a count', () => {
    stages(
      failed,
      { outcome: 'not run', reason: '--fail-fast: type check failed' },
      { outcome: 'not run' },
      { outcome: 'not run', tests: 38 },
    );
    expect(summarize(1)).toEqual([
      'stages: type check failed: counted as 1 failed; lint not run (--fail-fast: type check failed); ' +
        'unit and integration tests not run; browser tests not run: its 38 tests counted as skipped',
      '0 passed, 1 failed, 38 skipped',
    ]);
  });

  it('counts a test runner that failed with no failing test (no report, or a report of passes) as one failure', () => {
    stages(passed, passed, failed, failed);
    vitestReport(709, 0);
    expect(summarize(1)).toEqual([
      'stages: unit and integration tests failed with no failing test in its report: counted as 1 failed; ' +
        'browser tests failed with no report: counted as 1 failed',
      '709 passed, 2 failed',
    ]);
  });

  it('counts a test file that failed as a whole as one failure, and the tests the runners skipped as skipped', () => {
    stages(passed, passed, failed, passed);
    vitestReport(700, 0, { skipped: 2, fileFailedAlone: true });
    playwrightReport(37, 0, 0, 1);
    expect(summarize(1)).toEqual(['737 passed, 1 failed, 3 skipped']);
  });

  it('counts a stage the runner never finished as a failure', () => {
    stages(passed, passed, { outcome: 'running' }, { outcome: 'not run' });
    vitestReport(300, 0);
    expect(summarize(143)).toEqual([
      'stages: unit and integration tests did not finish: counted as 1 failed; browser tests not run',
      '300 passed, 1 failed',
    ]);
  });

  it('without stage records, sums the reports there are and never reads green when npm test failed', () => {
    vitestReport(709, 0);
    expect(summarize(1)).toEqual([
      'stages: no stages.json: which stages ran is unknown; npm test exited with 1 with no failure counted: counted as 1 failed',
      '709 passed, 1 failed',
    ]);
  });
});
