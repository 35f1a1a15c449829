import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';

// The kit's public surface, one API Extractor report per entry of each package's package.json "exports"
// (docs/public-api.md), committed in packages/<name>/etc/. `npm run api-report` writes them from the packages' built
// declarations (dist/); unit/api-reports.test.ts fails when the surface differs from them.

const root = path.resolve(import.meta.dirname, '../../..');
const packageNames = ['workflow', 'page', 'server', 'testing', 'vite-plugin', 'dev'];

export interface EntryReport {
  /** `@partner-task-kit/page/screens` */
  entry: string;
  /** The committed report, from the repository's root: `packages/page/etc/page-screens.api.md`. */
  reportFile: string;
  /** The package's folder and its built declaration of the entry. */
  packageDir: string;
  declaration: string;
  reportName: string;
}

interface Manifest {
  name: string;
  exports: Record<string, string | { types: string; default?: string }>;
}

/**
 * Every entry that gets a report: each key of "exports" but ./package.json and the types-only ones (a script of
 * declarations for the app's tsconfig `types`, such as @partner-task-kit/vite-plugin/client), which export nothing.
 */
export function entryReports(): EntryReport[] {
  return packageNames.flatMap((folder) => {
    const packageDir = path.join(root, 'packages', folder);
    const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as Manifest;
    return Object.entries(manifest.exports)
      .filter(([key, target]) => key !== './package.json' && !(typeof target === 'object' && target.default === undefined))
      .map(([key, target]) => {
        if (typeof target === 'string') throw new Error(`${manifest.name} exports ${key} without types`);
        const reportName = key === '.' ? folder : `${folder}-${key.slice(2).replaceAll('/', '-')}`;
        return {
          entry: key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`,
          reportFile: path.join('packages', folder, 'etc', `${reportName}.api.md`),
          packageDir,
          declaration: path.join(packageDir, target.types),
          reportName,
        };
      });
  });
}

export interface ReportOutcome {
  entry: string;
  reportFile: string;
  /** The report written from the declarations differs from the committed one (check), or was rewritten (update). */
  changed: boolean;
  /** The report as the declarations make it now. */
  report: string;
  problems: string[];
}

/**
 * One entry's report: with `update`, written over the committed one; without, compared with it (API Extractor's
 * "production" run, which fails on a difference).
 */
export function runApiReport(report: EntryReport, options: { update: boolean }): ReportOutcome {
  const temporary = mkdtempSync(path.join(tmpdir(), 'ptk-api-report-'));
  const problems: string[] = [];
  if (options.update) mkdirSync(path.join(report.packageDir, 'etc'), { recursive: true });
  try {
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: report.packageDir,
        newlineKind: 'lf',
        mainEntryPointFilePath: report.declaration,
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: 'ES2023',
              module: 'ESNext',
              moduleResolution: 'bundler',
              jsx: 'react-jsx',
              lib: ['ES2023', 'DOM', 'DOM.Iterable'],
              types: ['node'],
              strict: true,
              skipLibCheck: true,
              allowImportingTsExtensions: true,
              noEmit: true,
            },
            files: [report.declaration],
          },
        },
        apiReport: {
          enabled: true,
          reportFileName: `${report.reportName}.api.md`,
          reportFolder: path.join(report.packageDir, 'etc'),
          reportTempFolder: temporary,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
          extractorMessageReporting: {
            default: { logLevel: ExtractorLogLevel.Warning },
            // A type the entry uses but does not export is named in the report, where a reviewer sees it.
            'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
            // Release tags mark the kit-internal entries' exports (@internal); the public ones carry none.
            'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
            'ae-internal-missing-underscore': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
            // Documentation is docs/'s and the packages' READMEs', not a rule of the report.
            'ae-undocumented': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
          },
          // The kit's comments cite docs/ in prose, not in TSDoc's syntax.
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        },
      },
      configObjectFullPath: undefined,
      packageJsonFullPath: path.join(report.packageDir, 'package.json'),
    });
    const result = Extractor.invoke(config, {
      localBuild: options.update,
      messageCallback: (message: ExtractorMessage) => {
        if (message.logLevel === ExtractorLogLevel.Warning || message.logLevel === ExtractorLogLevel.Error) {
          if (!['console-api-report-changed', 'console-api-report-copied', 'console-api-report-created'].includes(message.messageId))
            problems.push(`${message.sourceFilePath ?? report.entry}: ${message.text}`);
        }
        message.handled = true;
      },
    });
    const written = path.join(temporary, `${report.reportName}.api.md`);
    return {
      entry: report.entry,
      reportFile: report.reportFile,
      changed: result.apiReportChanged,
      report: readFileSync(written, 'utf8'),
      problems,
    };
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}
