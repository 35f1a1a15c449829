import { entryReports, runApiReport } from '../helpers/api-reports';

// `npm run api-report`: the packages built, each entry's API report written into packages/<name>/etc/ from them
// (docs/public-api.md). Commit what changed with the change that changed it.
let failed = false;
for (const report of entryReports()) {
  const outcome = runApiReport(report, { update: true });
  process.stdout.write(`${outcome.changed ? 'updated' : 'unchanged'}  ${outcome.reportFile}\n`);
  for (const problem of outcome.problems) process.stderr.write(`  ${problem}\n`);
  if (outcome.problems.length > 0) failed = true;
}
if (failed) process.exitCode = 1;
