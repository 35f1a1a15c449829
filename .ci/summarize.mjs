// Sums the JSON reports that vitest and Playwright wrote into one "N passed, N failed" line.
// A failing `npm test` with no failing test counted (type check, lint, a crashed runner) counts as one failure,
// so the line never reads as green when the run was not.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, exitStatus] = process.argv.slice(2);
let passed = 0;
let failed = 0;

const vitestReport = join(dir, 'vitest.json');
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
}

const playwrightReport = join(dir, 'playwright.json');
if (existsSync(playwrightReport)) {
  const { stats } = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  failed += stats?.unexpected ?? 0;
}

if (Number(exitStatus) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
