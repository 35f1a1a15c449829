import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorsOf, lineAt, MARKDOWN_LINK, withoutCodeFences } from '../helpers/markdown-links';

/**
 * A page's links and the `packages/…` paths it names must exist where its reader stands. The kit's pages (README.md,
 * docs/) are read in this repository. The pages an app receives (its README and the workflow guide) are read in the
 * app the scaffolder makes, which has no packages/ and no docs/: they lead to the kit's pages by address, and a link
 * to this repository's address is checked against this repository. An `#anchor` must be a heading of the page,
 * slugged as GitHub does (github-slugger).
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const scaffolder = join(root, 'packages/create-partner-task-kit');

/** This repository on the web, from the packages' `repository` field, as the template's build leads docs/ there. */
const { repository } = JSON.parse(readFileSync(join(scaffolder, 'package.json'), 'utf8')) as { repository: { url: string } };
const KIT_ADDRESS = `${repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/`;

/**
 * A path of the repository or of an app named in prose or code (`packages/page/src/index.ts`, `tests/app/`), up to a
 * placeholder (`<id>`, `*`) or the end of the name, with the `#anchor` it names.
 */
const NAMED_PATH = /(?<![\w/.@-])((packages|src|server|tests|scripts|docs)\/[\w.@/-]*)(?:#([\w-]+))?/g;

/** Where a page is read: the folder its paths resolve in, and which of NAMED_PATH's roots that reader has. */
interface Reader {
  root: string;
  roots: ReadonlySet<string>;
}

const kitReader: Reader = { root, roots: new Set(['packages', 'src', 'server', 'tests', 'scripts', 'docs']) };
/** An app has the app's rooms, and neither packages/ nor docs/: its pages lead to the kit's docs by address. */
const appReader = (dir: string): Reader => ({ root: dir, roots: new Set(['src', 'server', 'tests']) });

/** The page whose subject is a copy of the kit made before the packages: the paths it names are that copy's. */
const OLD_LAYOUT_PAGES = new Set(['docs/copied-kit.md']);

function exists(base: string, path: string): boolean {
  return !path.startsWith('..') && existsSync(join(base, ...path.split('/')));
}

/** What is wrong with a link to `path#anchor` inside `base`, or undefined when it leads somewhere. */
function linkProblem(base: string, path: string, anchor: string | undefined): string | undefined {
  path = path.replace(/\/$/, '');
  if (!exists(base, path)) return 'no such file';
  if (anchor === undefined) return undefined;
  const file = join(base, ...path.split('/'));
  if (!path.endsWith('.md') || !statSync(file).isFile()) return 'an anchor on something that has no headings';
  return anchorsOf(readFileSync(file, 'utf8')).has(anchor) ? undefined : `no heading of ${path} has the anchor #${anchor}`;
}

/** Every broken link and named path of one page, as `file:line: target: problem`, in the order of the page. */
function brokenLinks(reader: Reader, file: string, text: string): string[] {
  const problems: Array<{ offset: number; problem: string }> = [];
  const report = (offset: number, target: string, problem: string | undefined) => {
    if (problem !== undefined) problems.push({ offset, problem: `${file}:${lineAt(text, offset)}: ${target}: ${problem}` });
  };
  for (const match of withoutCodeFences(text).matchAll(MARKDOWN_LINK)) {
    const link = match[2] ?? match[3]!;
    const [path = '', hash] = link.split('#', 2);
    const anchor = hash === '' ? undefined : hash;
    if (path === '') {
      // A heading of the page itself.
      report(match.index, link, anchorsOf(text).has(anchor ?? '') ? undefined : `no heading of ${file} has the anchor #${anchor}`);
    } else if (!/^[a-z][a-z0-9+.-]*:/i.test(link)) {
      report(match.index, link, linkProblem(reader.root, posix.normalize(posix.join(posix.dirname(file), path)), anchor));
    } else if (path.startsWith(KIT_ADDRESS)) {
      // Other sites are not ours to check; this repository's pages are, at the branch the template leads to.
      const kitPath = /^(?:blob|tree)\/main\/(.*)$/.exec(path.slice(KIT_ADDRESS.length))?.[1];
      report(match.index, link, kitPath === undefined ? 'not a page of the main branch' : linkProblem(root, kitPath, anchor));
    }
  }
  // Code blocks count: a path in a listing of rooms or a command is read as one too.
  for (const match of text.matchAll(NAMED_PATH)) {
    const [named, path = '', folder = '', anchor] = match;
    if (folder === 'packages' && !reader.roots.has(folder)) report(match.index, named, 'an app has no packages/');
    else if (reader.roots.has(folder) && !(folder !== 'packages' && OLD_LAYOUT_PAGES.has(file)))
      report(match.index, named, linkProblem(reader.root, path.replace(/[./-]+$/, ''), anchor));
  }
  return problems.sort((a, b) => a.offset - b.offset).map(({ problem }) => problem);
}

/** The markdown pages under `folder` of `base`, relative to `base`. */
function markdownUnder(base: string, folder: string): string[] {
  return readdirSync(join(base, folder), { recursive: true, encoding: 'utf8' })
    .map((entry) => posix.join(folder, entry.split(sep).join('/')))
    .filter((path) => path.endsWith('.md') && !path.includes('node_modules/'));
}

const readIn = (base: string, file: string) => readFileSync(join(base, file), 'utf8');

describe('the links of the kit’s pages and of the pages an app receives', () => {
  const work = mkdtempSync(join(tmpdir(), 'ptk-doc-links-'));
  /** One app per example, each made by the scaffolder as `npm create partner-task-kit -- --workflow <id>` makes it. */
  const apps: Array<{ example: string; dir: string }> = [];

  beforeAll(() => {
    // The scaffolder reads its template beside its own package.json: a copy of both, with the template built from
    // this repository's app (scripts/build-template.ts), as the published package holds them.
    const copy = join(work, 'create-partner-task-kit');
    mkdirSync(join(copy, 'src'), { recursive: true });
    copyFileSync(join(scaffolder, 'package.json'), join(copy, 'package.json'));
    copyFileSync(join(scaffolder, 'src/cli.ts'), join(copy, 'src/cli.ts'));
    const node = (args: string[]) => execFileSync(process.execPath, ['--import', 'tsx', ...args], { cwd: root, stdio: 'pipe' });
    node([join(scaffolder, 'scripts/build-template.ts'), join(copy, 'template')]);
    const examples = JSON.parse(readFileSync(join(copy, 'template/examples.json'), 'utf8')) as string[];
    for (const example of examples) {
      const dir = join(work, `app-${example}`);
      node([join(copy, 'src/cli.ts'), dir, '--workflow', example]);
      apps.push({ example, dir });
    }
  }, 60_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('lead somewhere in this repository, from README.md and docs/', () => {
    const pages = ['README.md', ...markdownUnder(root, 'docs')];
    expect(pages).toEqual(expect.arrayContaining(['docs/architecture.md', 'docs/decisions/010-walls-are-code.md']));
    expect(pages.flatMap((page) => brokenLinks(kitReader, page, readIn(root, page)))).toEqual([]);
  });

  it('lead somewhere in every app the scaffolder makes, or to this repository by its address', () => {
    expect(apps.length).toBeGreaterThan(0);
    // A problem of the guide is the same in every app: each is reported once, with the apps it is found in.
    const foundIn = new Map<string, string[]>();
    for (const { example, dir } of apps) {
      const pages = ['README.md', ...markdownUnder(dir, 'src'), ...markdownUnder(dir, 'server')];
      expect(pages).toContain('src/workflows/README.md');
      for (const problem of pages.flatMap((page) => brokenLinks(appReader(dir), page, readIn(dir, page)))) {
        foundIn.set(problem, [...(foundIn.get(problem) ?? []), example]);
      }
    }
    const where = (examples: string[]) => (examples.length === apps.length ? 'every app' : `the apps made with ${examples.join(', ')}`);
    expect([...foundIn].map(([problem, examples]) => `${problem} (in ${where(examples)})`)).toEqual([]);
  });

  it('reports each broken link and path with its file and line', () => {
    const page = [
      '# Page',
      'See [the walls](architecture.md#walls), [no heading](architecture.md#nowhere) and',
      '[a lost page](decisions/999-none.md). [Here](#page), [not here](#elsewhere).',
      'The code: `packages/workflow/src/index.ts`, `packages/no-such/thing.ts`, `@partner-task-kit/page/screens`,',
      '`docs/api.md#errors`, `docs/api.md#nowhere`, `tests/app/<id>-workflow.test.ts`, `tests/app/none.test.ts`.',
      `[Online](${KIT_ADDRESS}blob/main/docs/api.md#errors), [lost online](${KIT_ADDRESS}blob/main/docs/none.md).`,
      '[Elsewhere](https://example.com/none.md).',
      '```',
      'packages/no-such-room/   a room in a listing',
      '```',
    ].join('\n');
    expect(brokenLinks(kitReader, 'docs/example.md', page)).toEqual([
      'docs/example.md:2: architecture.md#nowhere: no heading of docs/architecture.md has the anchor #nowhere',
      'docs/example.md:3: decisions/999-none.md: no such file',
      'docs/example.md:3: #elsewhere: no heading of docs/example.md has the anchor #elsewhere',
      'docs/example.md:4: packages/no-such/thing.ts: no such file',
      'docs/example.md:5: docs/api.md#nowhere: no heading of docs/api.md has the anchor #nowhere',
      'docs/example.md:5: tests/app/none.test.ts: no such file',
      `docs/example.md:6: ${KIT_ADDRESS}blob/main/docs/none.md: no such file`,
      'docs/example.md:9: packages/no-such-room/: no such file',
    ]);
  });

  it('reads the paths of the page on a copy made before the packages as that copy’s, but not its packages/ paths', () => {
    const page = 'A copy has `src/ui/` and `server/store/migrations.ts`; the engine `packages/none/`.\n';
    expect(brokenLinks(kitReader, 'docs/copied-kit.md', page)).toEqual(['docs/copied-kit.md:1: packages/none/: no such file']);
  });

  it('refuses any packages/ path in a page an app receives, and reads its other paths in the app', () => {
    const app = mkdtempSync(join(work, 'app-'));
    mkdirSync(join(app, 'tests/app'), { recursive: true });
    const page = 'The runner (`packages/page/src/task/step-runner.tsx`), `tests/app/`, `tests/app/none.test.ts`.\n';
    expect(brokenLinks(appReader(app), 'src/workflows/README.md', page)).toEqual([
      'src/workflows/README.md:1: packages/page/src/task/step-runner.tsx: an app has no packages/',
      'src/workflows/README.md:1: tests/app/none.test.ts: no such file',
    ]);
  });
});
