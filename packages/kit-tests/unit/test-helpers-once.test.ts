import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const kitTests = join(import.meta.dirname, '..');

/** The engine's test code: every TypeScript file here but the fixtures, which are an app's code, not the tests'. */
function testFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' || entry.name === 'node_modules' ? [] : testFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The functions a file defines at its top level: declarations, and constants holding an arrow or a function. */
function topLevelFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  return source.statements.flatMap((statement) => {
    if (ts.isFunctionDeclaration(statement)) return statement.name ? [statement.name.text] : [];
    if (!ts.isVariableStatement(statement)) return [];
    return statement.declarationList.declarations.flatMap((declaration) =>
      ts.isIdentifier(declaration.name) &&
      declaration.initializer !== undefined &&
      (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer))
        ? [declaration.name.text]
        : [],
    );
  });
}

describe("the engine's test helpers", () => {
  it('are each defined once: a need shared by two files is met by one helper, and two things are not given one name', () => {
    const filesOf = new Map<string, string[]>();
    for (const file of testFiles(kitTests)) {
      for (const name of new Set(topLevelFunctions(file))) filesOf.set(name, [...(filesOf.get(name) ?? []), relative(kitTests, file)]);
    }
    const definedTwice = [...filesOf].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`);
    // The check can fail: it finds functions (this file's own among them).
    expect(filesOf.get('topLevelFunctions')).toEqual(['unit/test-helpers-once.test.ts']);
    expect(definedTwice).toEqual([]);
  });
});
