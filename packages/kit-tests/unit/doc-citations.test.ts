import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { anchorsOf, lineAt, MARKDOWN_LINK, withoutCodeFences } from '../helpers/markdown-links';

/**
 * Code comments cite the page that explains a rule (`docs/platform.md#statuses-and-transitions`, a file of
 * docs/decisions/), and the markdown pages (the README, docs/, src/workflows/README.md, ...) link to each other. A
 * citation that leads nowhere teaches nothing, so every one is checked: the file must exist, and an `#anchor` must be
 * a heading of it, slugged as GitHub does (github-slugger, a port of GitHub's own rules).
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Where code comments are read: every TypeScript file of these folders. */
const SOURCE_FOLDERS = ['src', 'server', 'tests', 'bench', 'scripts', 'packages'];

/** What installs, builds and test runs leave behind (.gitignore): their markdown is not the project's. */
// template: the scaffolder's, written from the app by its build (packages/create-partner-task-kit/scripts).
const NOT_OURS = new Set(['.git', 'node_modules', 'dist', 'build', 'data', 'test-results', 'playwright-report', 'template']);

interface Citation {
  /** The citing file, relative to the project root. */
  from: string;
  line: number;
  /** The cited file or folder, relative to the project root, with `/` separators. */
  target: string;
  /** Without the `#`; undefined when the citation names no heading. */
  anchor: string | undefined;
  /** A link whose text is a file name (`[docs/api.md](…)`): that name, which must be the file it leads to. */
  named?: string;
}

/** A `docs/…` path in a comment, optionally relative to the citing file (`../../../docs/api.md` here), and its `#anchor`. */
const DOCS_PATH = /(?<![\w/.-])((?:\.{1,2}\/)*docs\/[\w./-]*)(#[\w-]+)?/g;

/** A link text that is a file's name or path, in backticks or not, with an `#anchor` or not: `docs/api.md#errors`. */
const FILE_NAME_TEXT = /^`?((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w-][\w.-]*\.(?:md|tsx?|mjs|json|ya?ml))(?:#[\w-]+)?`?$/;

/** The comments of a TypeScript file, each with its offset: read from the syntax tree, so strings never count. */
function commentsOf(file: string, text: string): Array<{ text: string; offset: number }> {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) found.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node): void => {
    // A JSDoc node's parts lie inside its comment, and JSX text is not code: neither is scanned for comments.
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    if (node.kind === ts.SyntaxKind.JsxText) return;
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...found].map(([offset, comment]) => ({ text: comment, offset }));
}

/** The `docs/…` citations in the comments of one TypeScript file. */
function citationsInSource(file: string, text: string): Citation[] {
  // Most files name no docs at all: they are not parsed.
  if (!text.includes('docs/')) return [];
  return commentsOf(file, text).flatMap((comment) =>
    [...comment.text.matchAll(DOCS_PATH)].map((match) => ({
      from: file,
      line: lineAt(text, comment.offset + match.index),
      // A full stop right after a path ends the sentence, not the file name.
      target: resolveTarget(file, match[1]!.replace(/\.+$/, '')),
      anchor: match[2]?.slice(1),
    })),
  );
}

/** The relative links of one markdown file (other sites and `mailto:` are not ours to check). */
function citationsInMarkdown(file: string, text: string): Citation[] {
  const prose = withoutCodeFences(text);
  return [...prose.matchAll(MARKDOWN_LINK)].flatMap((match) => {
    const link = match[2] ?? match[3]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return [];
    const [path = '', anchor] = link.split('#', 2);
    const named = FILE_NAME_TEXT.exec(match[1]?.trim() ?? '')?.[1];
    return [
      {
        from: file,
        line: lineAt(text, match.index),
        target: path === '' ? file : posix.normalize(posix.join(posix.dirname(file), path)),
        anchor: anchor === '' ? undefined : anchor,
        ...(named === undefined ? {} : { named: named.replace(/^(?:\.{1,2}\/)+/, '') }),
      },
    ];
  });
}

/** A path from a comment: relative to the citing file when it starts with `./` or `../`, else to the project root. */
function resolveTarget(from: string, path: string): string {
  const target = path.startsWith('.') ? posix.join(posix.dirname(from), path) : path;
  return posix.normalize(target).replace(/\/$/, '');
}

/** What is wrong with each citation that leads nowhere, as `file:line: citation: problem`. */
function brokenCitations(citations: readonly Citation[]): string[] {
  const anchors = new Map<string, Set<string>>();
  const problems: string[] = [];
  for (const { from, line, target, anchor, named } of citations) {
    const cited = `${target}${anchor === undefined ? '' : `#${anchor}`}`;
    const at = `${from}:${line}: ${cited}`;
    // The reader trusts the name they see: `[docs/api.md](connecting-your-backend.md)` sends them elsewhere.
    if (named !== undefined && target !== named && !target.endsWith(`/${named}`)) problems.push(`${at}: the link's text names ${named}`);
    const path = join(root, ...target.split('/'));
    if (target.startsWith('..') || !existsSync(path)) {
      problems.push(`${at}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!target.endsWith('.md') || !statSync(path).isFile()) {
      problems.push(`${at}: an anchor on something that has no headings`);
      continue;
    }
    let offered = anchors.get(target);
    if (offered === undefined) anchors.set(target, (offered = anchorsOf(readFileSync(path, 'utf8'))));
    if (!offered.has(anchor)) problems.push(`${at}: no heading of ${target} has the anchor #${anchor}`);
  }
  return problems;
}

function filesUnder(folder: string, keep: (file: string) => boolean): string[] {
  const absolute = join(root, folder);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { recursive: true, encoding: 'utf8' })
    .map((entry) => posix.join(folder, entry.split(sep).join('/')))
    .filter((file) => !file.includes('node_modules/') && keep(file) && statSync(join(root, file)).isFile());
}

/** Every markdown page of the project, at any depth, relative to the root: the folders of NOT_OURS are not entered. */
function markdownPages(folder = ''): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) return NOT_OURS.has(entry.name) ? [] : markdownPages(path);
    return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
  });
}

function projectCitations(): { citations: Citation[]; pages: string[] } {
  const sources = SOURCE_FOLDERS.flatMap((folder) => filesUnder(folder, (file) => /\.tsx?$/.test(file)));
  const pages = markdownPages();
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  return {
    citations: [
      ...sources.flatMap((file) => citationsInSource(file, read(file))),
      ...pages.flatMap((file) => citationsInMarkdown(file, read(file))),
    ],
    pages,
  };
}

describe('citations of the documentation', () => {
  it('lead to an existing file, and to one of its headings when they name an anchor', () => {
    const { citations, pages } = projectCitations();
    // The README links the docs: an empty list would mean the reading is broken, not that all is well.
    expect(citations.length).toBeGreaterThan(0);
    expect(pages).toEqual(
      expect.arrayContaining(['README.md', 'docs/api.md', 'docs/decisions/010-walls-are-code.md', 'src/workflows/README.md']),
    );
    expect(pages.filter((page) => page.includes('node_modules/'))).toEqual([]);
    expect(brokenCitations(citations)).toEqual([]);
  });

  it('reports a comment citing a missing page or heading, naming the citing file and line', () => {
    const source = [
      'const a = 1; // docs/no-such-page.md says why',
      '/**',
      ' * The rule: docs/architecture.md#no-such-heading. The walls: docs/architecture.md#walls.',
      ' */',
      "const b = 'docs/ignored-because-a-string.md';",
    ].join('\n');
    const citations = citationsInSource('server/example.ts', source);
    expect(citations.map((citation) => citation.line)).toEqual([1, 3, 3]);
    expect(brokenCitations(citations)).toEqual([
      'server/example.ts:1: docs/no-such-page.md: no such file',
      'server/example.ts:3: docs/architecture.md#no-such-heading: no heading of docs/architecture.md has the anchor #no-such-heading',
    ]);
  });

  it('reads a link of a markdown page relative to the page, and checks its anchor', () => {
    const page = ['See [the walls](architecture.md#walls) and', '[a lost page](decisions/999-none.md#why).'].join('\n');
    expect(brokenCitations(citationsInMarkdown('docs/example.md', page))).toEqual([
      'docs/example.md:2: docs/decisions/999-none.md#why: no such file',
    ]);
  });

  it('reports a link whose text names another file than the one it leads to', () => {
    const page = [
      'Events ([docs/api.md](connecting-your-backend.md#events-to-your-backend)), errors ([api.md](api.md#errors)),',
      'the guide ([`src/workflows/README.md`](../src/workflows/README.md)), [the API](api.md).',
    ].join('\n');
    expect(brokenCitations(citationsInMarkdown('docs/example.md', page))).toEqual([
      "docs/example.md:1: docs/connecting-your-backend.md#events-to-your-backend: the link's text names docs/api.md",
    ]);
  });

  it('slugs headings as GitHub does', () => {
    const anchorOf = (heading: string) => [...anchorsOf(`## ${heading}`)][0];
    expect(anchorOf('Status updates')).toBe('status-updates');
    expect(anchorOf('The update endpoint')).toBe('the-update-endpoint');
    expect(anchorOf('TRUST_PROXY, and who is believed?')).toBe('trust_proxy-and-who-is-believed');
    expect(anchorOf('Walls: [lint](x.md) rules')).toBe('walls-lint-rules');
    expect(anchorOf('`POST /api/session`')).toBe('post-apisession');
    expect(anchorOf('Step 2 · Policy — “Report passed”')).toBe('step-2--policy--report-passed');
    expect([...anchorsOf('# Page\n## Limits\n```\n## Not a heading\n```\n## Limits\n')]).toEqual(['page', 'limits', 'limits-1']);
  });
});
