import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * Finding the examples' words in the engine's code (unit/engine-words.test.ts). Comments may name an example as an
 * example; code may not, so comments are dropped first with TypeScript's scanner, which knows a `//` inside a string,
 * a template or a regular expression from a comment.
 */

/** The words an engine's code never says: the examples' grading and theme, and every example workflow's id. */
export function exampleTerms(root: string): string[] {
  const ids = readdirSync(join(root, 'src/workflows'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return ['quiz', 'training', ...ids];
}

/** After these a `/` divides; after anything else it starts a regular expression. */
const endsOperand = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.PrivateIdentifier,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.PlusPlusToken,
  ts.SyntaxKind.MinusMinusToken,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
]);

/** `source` with every comment turned into spaces, its line breaks kept: the code alone, each part on its own line. */
export function withoutComments(source: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, source);
  const kept = source.split('');
  /** For each template literal open around the scanner, how deep in braces its `${` is. */
  const templates: number[] = [];
  let braces = 0;
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      for (let at = scanner.getTokenStart(); at < scanner.getTokenEnd(); at += 1) if (kept[at] !== '\n') kept[at] = ' ';
      continue;
    }
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia) continue;
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && !endsOperand.has(previous)) {
      kind = scanner.reScanSlashToken();
    } else if (kind === ts.SyntaxKind.TemplateHead) {
      templates.push(braces);
    } else if (kind === ts.SyntaxKind.OpenBraceToken) {
      braces += 1;
    } else if (kind === ts.SyntaxKind.CloseBraceToken) {
      if (templates.at(-1) === braces) {
        // The `}` closing a `${…}`: the template goes on after it.
        kind = scanner.reScanTemplateToken(false);
        if (kind === ts.SyntaxKind.TemplateTail) templates.pop();
      } else {
        braces -= 1;
      }
    }
    previous = kind;
  }
  return kept.join('');
}

/** The words of a line of code, lower case: `safetyTraining`, `SAFETY_TRAINING` and `'safety-training'` alike. */
function wordsOf(line: string): string[] {
  return line
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether `words` hold the term's words in a row, its last as the start of a word (`quiz` in `quizzes`). */
function says(words: readonly string[], term: string): boolean {
  const parts = term.toLowerCase().split('-');
  const last = parts.length - 1;
  return words.some((_, start) =>
    parts.every((part, index) => (index === last ? words[start + index]?.startsWith(part) : words[start + index] === part)),
  );
}

interface TermHit {
  /** 1-based. */
  line: number;
  term: string;
  /** The line of code, its comments dropped. */
  code: string;
}

/** Where the code of `source`, outside its comments, says one of `terms`. */
export function termsInCode(source: string, terms: readonly string[]): TermHit[] {
  return withoutComments(source)
    .split('\n')
    .flatMap((code, index) => {
      const words = wordsOf(code);
      return terms.filter((term) => says(words, term)).map((term) => ({ line: index + 1, term, code: code.trim() }));
    });
}
