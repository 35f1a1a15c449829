import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleTerms, termsInCode, withoutComments } from '../helpers/example-words';

// The engine names no example (docs/glossary.md, "Engine"): its packages' code never says an example's words, so an
// app that deletes every example, or renames one, reads nothing of them in the kit. Comments may use an example as one.

const root = join(import.meta.dirname, '../../..');

/** Every source file of the kit's packages: packages/<name>/src/**. */
function engineSources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|js|mjs)$/.test(entry.name)) files.push(relative(root, path));
    }
  };
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    const src = join(root, 'packages', entry.name, 'src');
    if (entry.isDirectory() && readdirSync(join(root, 'packages', entry.name)).includes('src')) walk(src);
  }
  return files.sort();
}

/** Code that must say an example's word, each with why; each must still say it, so none outlives its reason. */
const allowed = [
  {
    file: 'packages/server/src/store/migrations/0022-graded-step-failed.ts',
    term: 'quiz',
    why: 'the history kind the releases before it stored, which it renames and the server still reads',
  },
];

describe('the checker of example words', () => {
  const terms = ['quiz', 'training', 'safety-training', 'background-check', 'availability'];

  it('finds a word in code and names its line', () => {
    expect(termsInCode('const a = 1;\nconst rules = quizRules;\n', terms)).toEqual([
      { line: 2, term: 'quiz', code: 'const rules = quizRules;' },
    ]);
  });

  it('finds a workflow id however the code spells it', () => {
    const spelled = ["'safety-training'", 'safetyTraining', 'SAFETY_TRAINING', 'backgroundCheck', '"background-check"', 'Availability'];
    for (const code of spelled) expect(termsInCode(`const x = ${code};`, terms).length, code).toBeGreaterThan(0);
  });

  it('reads nothing in comments of either kind', () => {
    const source = [
      '// the quiz',
      '/* the training */',
      '/**',
      ' * `safety-training` as an example',
      ' */',
      'call(); // background-check',
      'const a = /* availability */ 1;',
    ].join('\n');
    expect(termsInCode(source, terms)).toEqual([]);
    expect(withoutComments(source).split('\n')).toHaveLength(7);
  });

  it('reads what only looks like a comment: in a string, a template, a regular expression', () => {
    const source = [
      "const a = 'http://quiz.example';",
      'const b = `${a}//training`;',
      'const c = /\\/\\/availability/;',
      'const d = `${ { x: 1 }.x } /* quiz */ ${a}`;',
      'const e = a.length / 2 / 3; const f = "background-check";',
    ].join('\n');
    expect(termsInCode(source, terms).map(({ line, term }) => [line, term])).toEqual([
      [1, 'quiz'],
      [2, 'training'],
      [3, 'availability'],
      [4, 'quiz'],
      [5, 'background-check'],
    ]);
  });

  it('reads a comment after a division, a template and a regular expression as a comment', () => {
    const source = ['const a = b / c; // quiz', 'const d = `x${a}y`; // training', 'const e = /x/g; // availability'].join('\n');
    expect(termsInCode(source, terms)).toEqual([]);
  });

  it('takes no word that merely holds a term', () => {
    expect(termsInCode('const constraining = unavailability;', terms)).toEqual([]);
  });
});

describe("the engine's code", () => {
  const terms = exampleTerms(root);
  const files = engineSources();
  const hits = files.flatMap((file) => termsInCode(readFileSync(join(root, file), 'utf8'), terms).map((hit) => ({ file, ...hit })));
  const isAllowed = (hit: { file: string; term: string }) => allowed.some((rule) => rule.file === hit.file && rule.term === hit.term);

  it('is read whole: every package, the quiz, the training and each example in src/workflows', () => {
    expect(terms).toEqual(expect.arrayContaining(['quiz', 'training']));
    for (const name of ['workflow', 'page', 'server', 'dev', 'vite-plugin', 'testing', 'create-partner-task-kit']) {
      expect(
        files.some((file) => file.startsWith(`packages/${name}/src/`)),
        name,
      ).toBe(true);
    }
  });

  it("says no example's word outside its comments", () => {
    const found = hits.filter((hit) => !isAllowed(hit)).map((hit) => `${hit.file}:${hit.line}: says "${hit.term}": ${hit.code}`);
    expect(found).toEqual([]);
  });

  it.each(allowed)('still needs its one allowance in $file ($why)', (rule) => {
    expect(hits.some((hit) => hit.file === rule.file && hit.term === rule.term)).toBe(true);
  });
});
