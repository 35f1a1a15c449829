import { existsSync } from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { expect } from 'vitest';

// Probes of the walls of docs/architecture.md#walls, rules of eslint.config.js: a file that does not exist, placed in a
// room, importing real files of the project: the forbidden import must fail with the rule's message, the allowed one
// must pass (and must exist, so it cannot pass because it resolved to nothing).

export const root = path.resolve(import.meta.dirname, '../../..');
const wallRules = new Set(['import-x/no-restricted-paths', 'no-restricted-imports', 'walls/no-import-cycle', 'walls/kit-entries']);

// One instance for every case: loading the config and the resolvers is the slow part, and both cache what they read.
// Ignores are off so the cycle fixture, which `npm run lint` skips, can be linted.
export const eslint = new ESLint({ cwd: root, ignore: false });

interface Problem {
  line: number;
  rule: string | null;
  message: string;
}

export async function lintAs(file: string, code: string): Promise<Problem[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return problemsOf(result?.messages ?? []);
}

export function problemsOf(messages: Linter.LintMessage[]): Problem[] {
  // Other rules (unused imports) do not matter here; a parse error does.
  return messages
    .filter((m) => m.fatal === true || wallRules.has(m.ruleId ?? ''))
    .map((m) => ({ line: m.line, rule: m.ruleId, message: m.message }));
}

/** `from` imports `allowed` on line 1 and `forbidden` on line 2; exactly line 2 must fail, with `reason`. */
export async function expectWall(from: string, allowed: string, forbidden: string, reason: string) {
  expect(existsSync(path.join(root, allowed)), `${allowed} exists`).toBe(true);
  expect(existsSync(path.join(root, forbidden)), `${forbidden} exists`).toBe(true);
  const problems = await lintAs(from, `import '${specifier(from, allowed)}';\nimport '${specifier(from, forbidden)}';\n`);
  expect(problems).toEqual([{ line: 2, rule: 'import-x/no-restricted-paths', message: expect.stringContaining(reason) }]);
}

/** The extensionless relative specifier the project writes, e.g. '../../server/clock'. */
function specifier(from: string, to: string): string {
  const relative = path.relative(path.dirname(from), to).replace(/\.tsx?$/, '');
  return relative.startsWith('.') ? relative : `./${relative}`;
}
