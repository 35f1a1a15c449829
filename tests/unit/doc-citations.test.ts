import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Code comments cite the page that explains a rule (`docs/platform.md#statuses-and-transitions`, a file of
 * docs/decisions/), and the README and the docs link to each other. A citation that leads nowhere teaches nothing, so
 * every one is checked: the file must exist, and an `#anchor` must be a heading of it, slugged as GitHub does.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Where code comments are read: every TypeScript file of these folders. */
const SOURCE_FOLDERS = ['src', 'server', 'tests', 'bench', 'scripts'];

interface Citation {
  /** The citing file, relative to the project root. */
  from: string;
  line: number;
  /** The cited file or folder, relative to the project root, with `/` separators. */
  target: string;
  /** Without the `#`; undefined when the citation names no heading. */
  anchor: string | undefined;
}

/** A `docs/…` path in a comment, optionally relative to the citing file (`../../docs/api.md` here), and its `#anchor`. */
const DOCS_PATH = /(?<![\w/.-])((?:\.{1,2}\/)*docs\/[\w./-]*)(#[\w-]+)?/g;

/** An inline link or image `[text](target)` (the text may span lines), or a reference definition `[id]: target`. */
const MARKDOWN_LINK = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm;

/** GitHub's heading ids: lower case, punctuation dropped (letters, digits, `_`, `-` and spaces kept), spaces to hyphens. */
function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The line (1-based) of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}

/** The text with fenced code blocks blanked out (line breaks kept, so offsets and lines still match). */
function withoutCodeFences(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker !== undefined) {
        fence = marker;
        return '';
      }
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** Every anchor a markdown page offers: its headings' slugs (`-1`, `-2` for repeats) and explicit `id`/`name`s. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = githubSlug(heading.replace(/`/g, ''));
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

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
    const link = match[1] ?? match[2]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return [];
    const [path = '', anchor] = link.split('#', 2);
    return [
      {
        from: file,
        line: lineAt(text, match.index),
        target: path === '' ? file : posix.normalize(posix.join(posix.dirname(file), path)),
        anchor: anchor === '' ? undefined : anchor,
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
  for (const { from, line, target, anchor } of citations) {
    const cited = `${target}${anchor === undefined ? '' : `#${anchor}`}`;
    const at = `${from}:${line}: ${cited}`;
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

function projectCitations(): Citation[] {
  const sources = SOURCE_FOLDERS.flatMap((folder) => filesUnder(folder, (file) => /\.tsx?$/.test(file)));
  const pages = ['README.md', ...filesUnder('docs', (file) => file.endsWith('.md'))];
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  return [
    ...sources.flatMap((file) => citationsInSource(file, read(file))),
    ...pages.filter((file) => existsSync(join(root, file))).flatMap((file) => citationsInMarkdown(file, read(file))),
  ];
}

describe('citations of the documentation', () => {
  it('lead to an existing file, and to one of its headings when they name an anchor', () => {
    const citations = projectCitations();
    // The README links the docs: an empty list would mean the reading is broken, not that all is well.
    expect(citations.length).toBeGreaterThan(0);
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

  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Status updates')).toBe('status-updates');
    expect(githubSlug('The update endpoint')).toBe('the-update-endpoint');
    expect(githubSlug('TRUST_PROXY, and who is believed?')).toBe('trust_proxy-and-who-is-believed');
    expect(githubSlug('Walls: [lint](x.md) rules')).toBe('walls-lint-rules');
    expect([...anchorsOf('# Page\n## Limits\n```\n## Not a heading\n```\n## Limits\n')]).toEqual(['page', 'limits', 'limits-1']);
  });
});
