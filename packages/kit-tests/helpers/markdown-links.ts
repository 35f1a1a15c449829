import GithubSlugger from 'github-slugger';

/**
 * Reading markdown as GitHub renders it, for the tests that check the documentation's links
 * (unit/doc-citations.test.ts, unit/doc-links.test.ts).
 */

/** An inline link or image `[text](target)` (the text may span lines), or a reference definition `[id]: target`. */
export const MARKDOWN_LINK = /!?\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm;

/**
 * The text GitHub slugs: a heading as rendered, so a link keeps its text and code its content. Inline markup is
 * read here because github-slugger slugs plain text only.
 */
function headingText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
}

/** The line (1-based) of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}

/** The text with fenced code blocks blanked out (line breaks kept, so offsets and lines still match). */
export function withoutCodeFences(markdown: string): string {
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
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  // One slugger per page: it numbers a repeated heading's slug as GitHub does.
  const slugger = new GithubSlugger();
  for (const line of withoutCodeFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) anchors.add(slugger.slug(headingText(heading)));
    for (const match of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}
