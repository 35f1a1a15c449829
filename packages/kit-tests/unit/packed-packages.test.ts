import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// What `npm pack` would publish of each engine package: its compiled dist/ and its papers only, every import of it
// inside the package or of a package it declares, and none of the app's files (docs/architecture.md#the-packages).

const root = path.resolve(import.meta.dirname, '../../..');
const packages = ['workflow', 'page', 'server', 'dev', 'vite-plugin'];
/** What the page's build supplies by name (packages/vite-plugin/src/preview-module.ts), not a package. */
const builtModules = new Set(['virtual:partner-task-kit/preview']);

interface PackedFile {
  path: string;
}

/**
 * The import specifiers of a compiled module or declaration file: static, dynamic and re-exports, read with
 * TypeScript's import scanner, as the lint's cycle rule reads them (eslint.config.js). Text that only looks like an
 * import is none: the code `partner-task-kit new-workflow` writes into an app, in template literals, or a regular
 * expression that matches import lines.
 */
function specifiersOf(code: string): string[] {
  return ts.preProcessFile(code, true, true).importedFiles.map((file) => file.fileName);
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

beforeAll(() => {
  execFileSync('npm', ['run', 'build:packages', '--silent'], { cwd: root, stdio: 'pipe', timeout: 170_000 });
}, 180_000);

describe.each(packages)('the packed @partner-task-kit/%s', (name) => {
  const directory = path.join(root, 'packages', name);
  const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  let files: string[] = [];

  beforeAll(() => {
    const packed = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: directory, encoding: 'utf8' });
    files = (JSON.parse(packed) as { files: PackedFile[] }[])[0]?.files.map((file) => file.path) ?? [];
  }, 60_000);

  it('holds its compiled dist/, its README, its CHANGELOG and its manifest, and no source', () => {
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'dist/index.js', 'dist/index.d.ts']));
    // types/: the declarations of a types-only entry (@partner-task-kit/vite-plugin/client), written, not compiled.
    expect(files.filter((file) => !/^(dist\/.+|types\/[\w-]+\.d\.ts|package\.json|README\.md|CHANGELOG\.md)$/.test(file))).toEqual([]);
    expect(files.filter((file) => /\.tsx?$/.test(file) && !/\.d(\.css)?\.ts$/.test(file))).toEqual([]);
  });

  it("imports nothing outside itself but the packages it declares: none of the app's files", () => {
    const declared = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const problems: string[] = [];
    for (const file of files.filter((each) => each.endsWith('.js') || each.endsWith('.d.ts'))) {
      const absolute = path.join(directory, file);
      for (const specifier of specifiersOf(readFileSync(absolute, 'utf8'))) {
        if (specifier.startsWith('.')) {
          const target = path.resolve(path.dirname(absolute), specifier);
          const inside = target.startsWith(path.join(directory, 'dist') + path.sep);
          // Declarations keep the sources' `.ts` specifiers, which TypeScript resolves to the `.d.ts` beside them.
          const exists = [target, target.replace(/\.tsx?$/, '.d.ts')].some((candidate) => existsSync(candidate));
          if (!inside || !exists) problems.push(`${file}: ${specifier}`);
        } else if (file.endsWith('.js')) {
          const builtin = specifier.startsWith('node:') || builtinModules.includes(specifier);
          if (!builtin && !builtModules.has(specifier) && !declared.has(packageName(specifier)))
            problems.push(`${file}: ${specifier} (not a declared dependency)`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
