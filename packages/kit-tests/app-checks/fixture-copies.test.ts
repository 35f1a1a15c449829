import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The engine's tests run on copies of the examples' definitions (packages/kit-tests/fixtures/workflows), because they
 * must pass with every example deleted from the app (without-examples.sh, which deletes this folder of checks too).
 * While the examples are here, each copy is its example byte for byte after its one line saying so: an example that
 * changes takes its copy with it, and the engine is never tested on a workflow no app has.
 */
const fixtures = join(process.cwd(), 'packages/kit-tests/fixtures/workflows');

function copies(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return copies(path);
    // Only a workflow's own folder holds copies; the catalog beside them (index.ts) is the fixtures' own.
    return /\.(ts|tsx)$/.test(entry.name) && directory !== fixtures ? [relative(fixtures, path)] : [];
  });
}

describe("the engine's copies of the examples", () => {
  const files = copies(fixtures);

  it('are there', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s is its example after the line that says it is a copy', (file) => {
    const [header, ...rest] = readFileSync(join(fixtures, file), 'utf8').split('\n');
    expect(header).toBe(`// The engine's copy of src/workflows/${file}: its tests run with every example deleted (without-examples.sh).`);
    expect(rest.join('\n')).toBe(readFileSync(join(process.cwd(), 'src/workflows', file), 'utf8'));
  });
});
