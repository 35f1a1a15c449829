import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { entryReports, runApiReport } from '../helpers/api-reports';

// The kit's public surface is what its committed API reports say (docs/public-api.md): an export added, removed or
// changed in an entry fails here until `npm run api-report` rewrites the report and the change is committed with it.

const root = path.resolve(import.meta.dirname, '../../..');

beforeAll(() => {
  execFileSync('npm', ['run', 'build:packages', '--silent'], { cwd: root, stdio: 'pipe', timeout: 170_000 });
}, 180_000);

describe('the API reports', () => {
  it('name one report per entry of each package, the kit-internal ones marked @internal', () => {
    const reports = entryReports();
    expect(reports.map((report) => report.entry)).toEqual([
      '@partner-task-kit/workflow',
      '@partner-task-kit/workflow/contract',
      '@partner-task-kit/page',
      '@partner-task-kit/page/screens',
      '@partner-task-kit/page/internal',
      '@partner-task-kit/server',
      '@partner-task-kit/server/internal',
      '@partner-task-kit/testing',
      '@partner-task-kit/vite-plugin',
      '@partner-task-kit/vite-plugin/register',
      '@partner-task-kit/dev',
      '@partner-task-kit/dev/preview',
    ]);
    for (const report of reports.filter((each) => each.entry.endsWith('/internal'))) {
      const text = readFileSync(path.join(root, report.reportFile), 'utf8');
      const exported = text.match(/^export /gm)?.length ?? 0;
      expect(exported, report.reportFile).toBeGreaterThan(0);
      // Each export of a kit-internal entry is preceded by its release tag.
      expect(text.match(/^\/\/ @internal.*\nexport /gm)?.length, report.reportFile).toBe(exported);
    }
  });

  it.each(entryReports().map((report) => [report.entry, report] as const))(
    'match the surface of %s',
    (_entry, report) => {
      const outcome = runApiReport(report, { update: false });
      expect(outcome.problems).toEqual([]);
      const committed = readFileSync(path.join(root, report.reportFile), 'utf8');
      expect(outcome.report, `${report.reportFile} differs from the built package: run \`npm run api-report\``).toBe(committed);
      expect(outcome.changed).toBe(false);
    },
    60_000,
  );
});
