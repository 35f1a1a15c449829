import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { npmEnvironment } from '../helpers/dev-process';
import { isRunning } from '../helpers/dev-process';

/**
 * `npm test` (scripts/run-tests.mjs) in a project of its own whose stages are stand-ins: each writes the report its
 * runner would, or fails, or waits, as a test asks. `playwright test --list` is a stand-in too, listing three tests.
 */
let project: string;
let reports: string;

const projectPackage = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'ptk-stages-'));
  reports = join(project, 'reports');
  mkdirSync(join(project, 'scripts'));
  copyFileSync('scripts/run-tests.mjs', join(project, 'scripts', 'run-tests.mjs'));
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  const list = JSON.stringify({ suites: [{ specs: [{ tests: [{}, {}] }], suites: [{ specs: [{ tests: [{}] }] }] }] });
  writeFileSync(join(project, 'node_modules', '.bin', 'playwright'), `#!/bin/sh\necho '${list}'\n`);
  chmodSync(join(project, 'node_modules', '.bin', 'playwright'), 0o755);
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

/** A stage that writes `report` into TEST_REPORT_DIR and exits with `code`. */
const writes = (file: string, report: unknown, code = 0) =>
  `node -e "require('fs').writeFileSync(process.env.TEST_REPORT_DIR + '/${file}', process.argv[1]); process.exit(${code})" '${JSON.stringify(report)}'`;

function makeProject(scripts: { typecheck: string; lint: string; unit: string; e2e: string; packed?: string; container?: string }) {
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'stages',
      private: true,
      // The project's own test command, so this checks what `npm test` runs.
      scripts: {
        test: projectPackage.scripts.test,
        typecheck: scripts.typecheck,
        lint: scripts.lint,
        'test:unit': scripts.unit,
        'test:e2e': scripts.e2e,
        'test:packed': scripts.packed ?? packedPassing,
        'test:container': scripts.container ?? containerSkipped,
      },
    }),
  );
}

const vitestPassing = writes('vitest.json', { numPassedTests: 5, numFailedTests: 0, testResults: [] });
const vitestFailing = writes('vitest.json', { numPassedTests: 4, numFailedTests: 1, testResults: [] }, 1);
const playwrightPassing = writes('playwright.json', { stats: { expected: 3, unexpected: 0, flaky: 0, skipped: 0 } });
/** The packed packages' stage: its two apps tested. */
const packedPassing = writes('vitest-packed.json', { numPassedTests: 2, numFailedTests: 0, testResults: [] });
/** The container image's stage where no engine works: its one test skipped. */
const containerSkipped = writes('vitest-container.json', { numPassedTests: 0, numFailedTests: 0, numPendingTests: 1, testResults: [] });

interface Run {
  status: number | null;
  output: string;
}

function npmTest(args: string[] = [], environment: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['test', ...args], {
      cwd: project,
      env: { ...npmEnvironment(), TEST_REPORT_DIR: reports, ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
}

const stageRecords = () =>
  (JSON.parse(readFileSync(join(reports, 'stages.json'), 'utf8')) as { stages: Array<{ id: string; outcome: string; tests?: number }> })
    .stages;

const summary = (status: number | null) =>
  execFileSync(process.execPath, ['.ci/summarize.mjs', reports, String(status)], { encoding: 'utf8' })
    .trimEnd()
    .split('\n');

describe('npm test: the stages', () => {
  it('runs every stage even after one failed, records each, and fails', async () => {
    makeProject({ typecheck: 'exit 0', lint: 'exit 3', unit: vitestFailing, e2e: playwrightPassing });
    const run = await npmTest();
    expect(run.status, run.output).toBe(1);
    expect(stageRecords().map((stage) => [stage.id, stage.outcome])).toEqual([
      ['typecheck', 'passed'],
      ['lint', 'failed'],
      ['unit', 'failed'],
      ['e2e', 'passed'],
      ['packed', 'passed'],
      ['container', 'passed'],
    ]);
    expect(run.output).toMatch(/npm test stages\n {2}type check +passed[^\n]*\n {2}lint +failed +[\d.]+ s, exit code 3\n/);
    expect(summary(run.status)).toEqual(['stages: lint failed: counted as 1 failed', '9 passed, 2 failed, 1 skipped']);
  }, 60_000);

  it('stops at the first failure with --fail-fast or TEST_FAIL_FAST=1, and counts the browser tests it did not run', async () => {
    makeProject({ typecheck: 'exit 0', lint: 'exit 0', unit: vitestFailing, e2e: playwrightPassing });
    for (const [args, environment] of [[['--', '--fail-fast'], {}] as const, [[], { TEST_FAIL_FAST: '1' }] as const]) {
      const run = await npmTest([...args], environment);
      expect(run.status, run.output).toBe(1);
      expect(stageRecords().map((stage) => [stage.id, stage.outcome, stage.tests])).toEqual([
        ['typecheck', 'passed', undefined],
        ['lint', 'passed', undefined],
        ['unit', 'failed', undefined],
        ['e2e', 'not run', 3],
        ['packed', 'not run', undefined],
        ['container', 'not run', undefined],
      ]);
      expect(existsSync(join(reports, 'playwright.json'))).toBe(false);
      expect(summary(run.status)).toEqual([
        'stages: browser tests not run (--fail-fast: unit and integration tests failed): its 3 tests counted as skipped; ' +
          'packed packages not run (--fail-fast: unit and integration tests failed); ' +
          'container image not run (--fail-fast: unit and integration tests failed)',
        '4 passed, 1 failed, 3 skipped',
      ]);
    }
  }, 60_000);

  it('passes when every stage passed, and drops the reports of an earlier run first', async () => {
    makeProject({ typecheck: 'exit 0', lint: 'exit 0', unit: vitestPassing, e2e: 'exit 0' });
    mkdirSync(reports);
    writeFileSync(join(reports, 'playwright.json'), JSON.stringify({ stats: { expected: 0, unexpected: 9 } }));
    const run = await npmTest();
    expect(run.status, run.output).toBe(0);
    expect(summary(run.status)).toEqual([
      'stages: browser tests passed but left no playwright.json: its tests are not counted',
      '7 passed, 0 failed, 1 skipped',
    ]);
  }, 60_000);

  it('stops the running stage, every process of it, when npm is stopped, and runs no further stage', async () => {
    const pidFile = join(project, 'stage.pid');
    // The stand-in lint stage: a shell that records its process id, then becomes a long sleep.
    makeProject({ typecheck: 'exit 0', lint: `echo $$ > ${pidFile} && exec sleep 120`, unit: vitestPassing, e2e: playwrightPassing });
    const child = spawn('npm', ['test'], {
      cwd: project,
      env: { ...npmEnvironment(), TEST_REPORT_DIR: reports },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', { timeout: 30_000 }).toBe(true);
    const stagePid = Number(readFileSync(pidFile, 'utf8'));
    child.kill('SIGTERM');
    expect(await exited).not.toBe(0);
    await expect.poll(() => isRunning(stagePid), { timeout: 20_000 }).toBe(false);
    await expect
      .poll(() => stageRecords().map((stage) => stage.outcome), { timeout: 20_000 })
      .toEqual(['passed', 'failed', 'not run', 'not run', 'not run', 'not run']);
  }, 60_000);
});
