import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The app's workflows leave their splitting to the engine (docs/architecture.md#a-workflow-is-a-folder): the page's
 * build makes each step's screen and each language's texts a chunk of its own from the folder's files, so a workflow
 * holds no step switch, no lazily loaded screen and no dynamic import of its own.
 */
const workflows = join(process.cwd(), 'src/workflows');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const chunkingCode: readonly [string, RegExp][] = [
  ['lazily loaded screen (lazyScreen)', /\blazyScreen\b/],
  ['texts loaded by hand (workflowTexts)', /\bworkflowTexts\b/],
  ['later-steps module', /later-steps/],
  ['step switch', /switch\s*\(\s*(props\.)?stepId\s*\)|\bstepId\s*===/],
  ['React.lazy', /\blazy\s*\(/],
  ['dynamic import', /\bimport\s*\(/],
];

describe('the example workflows as folders', () => {
  const files = sourceFiles(workflows);

  it('are source files to look at', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(chunkingCode)('hold no %s: the engine splits the page per step', (_what, pattern) => {
    const found = files.filter((file) => pattern.test(readFileSync(file, 'utf8'))).map((file) => relative(process.cwd(), file));
    expect(found).toEqual([]);
  });

  it('keep no registry of screens: the build finds them by their folders', () => {
    expect(readdirSync(workflows).filter((name) => /^registry\.views\./.test(name))).toEqual([]);
  });
});
