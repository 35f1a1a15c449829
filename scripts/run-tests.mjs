// `npm test`: the type check, lint, vitest, Playwright, the packed packages' test and the container image's test, in this order, each through its
// own npm script.
//
// Every stage runs even after one fails, so a failing unit test does not hide the browser tests' results; a developer
// who wants the first failure only passes --fail-fast (`npm test -- --fail-fast`) or sets TEST_FAIL_FAST=1. The
// outcome of each stage (passed, failed, not run) is printed at the end and, when TEST_REPORT_DIR is set, written to
// stages.json beside vitest's and Playwright's reports, where .ci/summarize.mjs reads it. Exits non-zero when any
// stage failed or the run was interrupted.
//
// Plain JavaScript: it starts before anything is type checked, and without tsx's start-up cost.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/** `report`: the JSON report the stage's runner writes into TEST_REPORT_DIR (vitest.config.ts, playwright.config.ts). */
const STAGES = [
  { id: 'typecheck', name: 'type check', script: 'typecheck' },
  { id: 'lint', name: 'lint', script: 'lint' },
  { id: 'unit', name: 'unit and integration tests', script: 'test:unit', report: 'vitest.json' },
  { id: 'e2e', name: 'browser tests', script: 'test:e2e', report: 'playwright.json', countTests: countPlaywrightTests },
  // The packages as a partner installs them: packed, installed into apps outside the repository, tested and started.
  { id: 'packed', name: 'packed packages', script: 'test:packed', report: 'vitest-packed.json' },
  // Last and on its own: building the image takes minutes and both CPUs; without a container engine it is skipped.
  { id: 'container', name: 'container image', script: 'test:container', report: 'vitest-container.json' },
];

const { values } = parseArgs({ options: { 'fail-fast': { type: 'boolean', default: false } } });
// The runner is no part of the server, whose settings alone go through packages/server/src/config.ts: these two are the test
// runners' own (TEST_REPORT_DIR is read by vitest.config.ts and playwright.config.ts as well).
// eslint-disable-next-line no-restricted-properties
const { TEST_REPORT_DIR: reportDir, TEST_FAIL_FAST: failFastVariable } = process.env;
const failFast = values['fail-fast'] || ['1', 'true'].includes(failFastVariable ?? '');

const records = STAGES.map((stage) => ({
  id: stage.id,
  name: stage.name,
  command: `npm run ${stage.script}`,
  ...(stage.report ? { report: stage.report } : {}),
  outcome: 'not run',
}));

if (reportDir) {
  mkdirSync(reportDir, { recursive: true });
  // A report left from an earlier run in the same directory would be summed as if this run had written it.
  for (const file of ['stages.json', ...STAGES.flatMap((stage) => (stage.report ? [stage.report] : []))]) {
    rmSync(join(reportDir, file), { force: true });
  }
}
writeRecords();

/** The stage running now, for the signal handlers; undefined between stages. */
let current;
let interruptedBy;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interruptedBy ??= signal;
    // Each stage runs in a process group of its own (see runStage): the signal reaches every process of it, not only
    // npm, whose shell would die and leave vitest or Playwright running without anyone waiting for them.
    if (current?.pid !== undefined) signalGroup(current.pid, signal);
  });
}

let stopReason;
for (const [index, stage] of STAGES.entries()) {
  const record = records[index];
  // An interruption wins over --fail-fast as the reason the remaining stages did not run.
  if (interruptedBy) stopReason = `interrupted by ${interruptedBy}`;
  if (stopReason !== undefined) {
    record.reason = stopReason;
    continue;
  }
  process.stdout.write(`\n== ${stage.name}: ${record.command}\n`);
  record.outcome = 'running';
  writeRecords();
  const started = performance.now();
  const { code, signal } = await runStage(stage.script);
  record.seconds = Math.round((performance.now() - started) / 100) / 10;
  record.outcome = code === 0 ? 'passed' : 'failed';
  record.exitCode = code;
  if (signal) record.signal = signal;
  if (interruptedBy && record.outcome === 'failed') record.reason = `interrupted by ${interruptedBy}`;
  writeRecords();
  if (failFast && record.outcome === 'failed') stopReason ??= `--fail-fast: ${stage.name} failed`;
}

// A stage that did not run still has tests: counted here when that is cheap, so the summary can say how many.
for (const [index, stage] of STAGES.entries()) {
  const record = records[index];
  if (record.outcome === 'not run' && stage.countTests && !interruptedBy) {
    const tests = stage.countTests();
    if (tests !== undefined) record.tests = tests;
  }
}
writeRecords();
printSummary();

const anyFailed = records.some((record) => record.outcome === 'failed');
process.exitCode = interruptedBy ? 128 + signalNumber(interruptedBy) : anyFailed ? 1 : 0;

function runStage(script) {
  return new Promise((resolve) => {
    // npm itself, as the npm that runs this script: the stage's command stays in package.json.
    // eslint-disable-next-line no-restricted-properties
    const npmCli = process.env.npm_execpath;
    const [command, args] = npmCli ? [process.execPath, [npmCli, 'run', script]] : ['npm', ['run', script]];
    // detached: a process group of its own, so a signal can be sent to all of the stage's processes at once.
    // Standard input is not passed on: a stage in a background group that read the terminal would be stopped.
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    current = child;
    child.once('error', (error) => {
      process.stderr.write(`could not start ${script}: ${error.message}\n`);
      current = undefined;
      resolve({ code: 1, signal: null });
    });
    child.once('exit', (code, signal) => {
      current = undefined;
      // Whatever the stage left behind in its group (a worker that outlived its runner) would hold the output open
      // and the next stage's ports: it goes with the stage.
      signalGroup(child.pid, 'SIGKILL');
      resolve({ code: code ?? 128 + signalNumber(signal), signal });
    });
  });
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal] ?? 1;
}

/**
 * The browser tests Playwright would run, without running them: `playwright test --list` reads the spec files only
 * (no build, no server). Its JSON goes to standard output: TEST_REPORT_DIR is left out so the config's reporter does
 * not replace playwright.json, and E2E_DATABASE is set so the config makes no temporary directory for a database.
 */
function countPlaywrightTests() {
  // eslint-disable-next-line no-restricted-properties
  const { TEST_REPORT_DIR: _unused, ...environment } = process.env;
  const listed = spawnSync('node_modules/.bin/playwright', ['test', '--list', '--reporter=json'], {
    env: { ...environment, E2E_PORT: '1', E2E_DATABASE: join('test-results', 'not-used.db') },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  if (listed.status !== 0) return undefined;
  try {
    const countIn = (suite) =>
      (suite.specs ?? []).reduce((sum, spec) => sum + (spec.tests?.length ?? 0), 0) +
      (suite.suites ?? []).reduce((sum, inner) => sum + countIn(inner), 0);
    return JSON.parse(listed.stdout).suites.reduce((sum, suite) => sum + countIn(suite), 0);
  } catch {
    return undefined;
  }
}

function writeRecords() {
  if (!reportDir) return;
  writeFileSync(join(reportDir, 'stages.json'), `${JSON.stringify({ failFast, stages: records }, null, 2)}\n`);
}

function printSummary() {
  const width = Math.max(...records.map((record) => record.name.length));
  const lines = records.map((record) => {
    const detail =
      record.outcome === 'not run'
        ? [record.reason, record.tests === undefined ? undefined : `${record.tests} test${record.tests === 1 ? '' : 's'}`]
            .filter(Boolean)
            .join('; ')
        : [`${record.seconds} s`, record.outcome === 'failed' ? `exit code ${record.exitCode}` : undefined, record.reason]
            .filter(Boolean)
            .join(', ');
    return `  ${record.name.padEnd(width)}  ${record.outcome.padEnd(7)}  ${detail}`.trimEnd();
  });
  process.stdout.write(`\n== npm test stages\n${lines.join('\n')}\n`);
}
