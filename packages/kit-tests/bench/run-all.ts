import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { renderBenchmarks, type SuiteResult } from './benchmarks-report';
import { machine } from './bench-support';

/**
 * `npm run bench`: every suite in its own process, one after the other (on a 2-core machine two suites at once
 * would measure each other), each printing one JSON line per result; the lines are echoed and BENCHMARKS.md is
 * rewritten from them. `npm run bench -- --suites api,token` runs some; BENCHMARKS.md is rewritten only for all.
 */
/**
 * Each suite's script and arguments. `api-tsx`: the same API load on the server as `npm run dev` runs it, for its RSS;
 * `api-postgres`: on Postgres.
 */
const commands: Record<string, string[]> = {
  api: ['packages/kit-tests/bench/api.ts'],
  'api-tsx': ['packages/kit-tests/bench/api.ts', '--server', 'tsx', '--modes', 'NORMAL'],
  'api-postgres': ['packages/kit-tests/bench/api.ts', '--modes', 'postgres'],
  delivery: ['packages/kit-tests/bench/delivery.ts'],
  'partner-events': ['packages/kit-tests/bench/partner-events.ts'],
  page: ['packages/kit-tests/bench/page.ts'],
  recovery: ['packages/kit-tests/bench/recovery.ts'],
  retention: ['packages/kit-tests/bench/retention.ts'],
  // One Postgres as the data grows: 100,000 tasks and 1,000,000 outbox rows against an empty database (about 3 min).
  scale: ['packages/kit-tests/bench/scale.ts'],
  token: ['packages/kit-tests/bench/token.ts'],
  // Ten 10 MB uploads at once: the kit's server beside a bare @tus/server, a photo and a PDF (about 2 min).
  uploads: ['packages/kit-tests/bench/uploads.ts'],
};
const allSuites = Object.keys(commands);
const { values } = parseArgs({ options: { suites: { type: 'string', default: allSuites.join(',') } } });
const suites = values.suites.split(',');

const loadBefore = os.loadavg();
const results: SuiteResult[] = [];
const failures: string[] = [];
for (const suite of suites) {
  try {
    for (const line of await runSuite(suite)) {
      console.log(line);
      results.push(JSON.parse(line) as SuiteResult);
    }
  } catch (error) {
    failures.push(`${suite}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
const loadAfter = os.loadavg();

if (failures.length > 0) {
  process.stderr.write(`bench: failed suites, BENCHMARKS.md left as it was:\n  ${failures.join('\n  ')}\n`);
  process.exitCode = 1;
} else if (allSuites.every((suite) => suites.includes(suite))) {
  writeFileSync('BENCHMARKS.md', renderBenchmarks(results, { ...machine(), loadBefore, loadAfter }));
  process.stderr.write('bench: BENCHMARKS.md rewritten\n');
}

/** Runs one suite's script and returns its JSON lines (anything else it prints is passed through to stderr). */
function runSuite(suite: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const command = commands[suite];
    if (!command) throw new Error(`unknown suite ${suite}; one of ${allSuites.join(', ')}`);
    const child = spawn(process.execPath, ['--import', 'tsx', ...command], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const lines = output.split('\n').filter((line) => line.startsWith('{'));
      for (const line of output.split('\n')) if (line.trim() !== '' && !line.startsWith('{')) process.stderr.write(`${line}\n`);
      if (code === 0 && lines.length > 0) resolve(lines);
      else reject(new Error(`exited with ${code} after ${lines.length} result(s)`));
    });
  });
}
