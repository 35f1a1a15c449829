import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerTaskKit, type PartnerTaskKitOptions } from '@partner-task-kit/vite-plugin';
import { EMULATOR_CREDENTIAL } from '@partner-task-kit/dev';
import { answerRationales } from '../../../src/workflows/safety-training/definition.server';
import {
  buildPage,
  builtTexts,
  describeGrowth,
  describeWeight,
  initialScripts,
  pageScripts,
  pageWeight,
  type PageWeight,
} from '../helpers/page-build';
import { copyProject, runIn } from '../helpers/project-copy';
import { TEST_SECRETS } from '../helpers/task-app';

/**
 * Each page of the task (index.html, and each prerendered first screen a link is answered with) loads and preloads at
 * most 100 KB gzip of JavaScript before its first step runs (BENCHMARKS.md's budget, in packages/kit-tests/bench/page.ts's KB of 1024
 * bytes: the worker opens it on a phone, often on a slow network); the preview and the later steps load lazily and do
 * not count.
 */
const INITIAL_JS_BUDGET_BYTES = 100 * 1024;

/** The first line the build (packages/vite-plugin) adds to the scripts a first screen runs (V8's compile hint). */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** The pages of a build: index.html and the prerendered first screens, by their path in it. */
function builtPages(outDir: string): Map<string, string> {
  const pages = builtTexts(outDir).filter((f) => f.file.endsWith('.html'));
  return new Map(pages.map(({ file, text }) => [relative(outDir, file).replaceAll('\\', '/'), text]));
}

/** The budget's failure message names what the page carries, so a partner sees which import to move. */
function overBudget(page: string, weight: PageWeight): string {
  return `${page} loads ${weight.total} B gzip of JavaScript before its first step, over ${INITIAL_JS_BUDGET_BYTES} B:\n${describeWeight(weight)}`;
}

describe('the production build of the page', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'ptk-dist-'));
  beforeAll(async () => {
    // Hidden source maps: the scripts are the same as without, and the budget's message can name the modules.
    await buildPage({ outDir, sourcemap: 'hidden' });
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('keeps the JavaScript each page of the task loads before its first step runs within 100 KB gzip', () => {
    const pages = builtPages(outDir);
    expect(pages.size).toBeGreaterThan(1);
    for (const [page, html] of pages) {
      const weight = pageWeight(outDir, html, process.cwd());
      expect(weight.scripts.length).toBeGreaterThan(0);
      console.info(`${page}: ${(weight.total / 1024).toFixed(1)} KB gzip of JavaScript in ${weight.scripts.length} file(s)`);
      expect(weight.total, overBudget(page, weight)).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
    }
  });

  it('writes a brotli and a gzip copy beside the page and each script a page loads first, equal to it once decompressed', () => {
    // The server sends these (preCompressed); the budget above is still the gzip of the originals, as before. The
    // scripts of the first screens are written once more with their compile hint (packages/vite-plugin): the copies
    // follow.
    const pages = builtTexts(outDir).filter((f) => f.file.endsWith('.html'));
    const scripts = new Set(pages.flatMap(({ text }) => pageScripts(outDir, text)));
    for (const file of ['/index.html', ...scripts]) {
      const original = readFileSync(join(outDir, file));
      // A file of a hundred bytes or so may get no copy in a format that would make it larger (gzip's header is 18
      // bytes); the server then sends the original. Any copy that would be smaller must be there, judged as it was
      // compressed: before its compile hint was added (packages/vite-plugin rewrites only the copies there are).
      const compressed = original.toString().startsWith(COMPILE_HINT) ? original.subarray(COMPILE_HINT.length) : original;
      const copies = [
        ['.br', brotliCompressSync, brotliDecompressSync],
        ['.gz', (code: Buffer) => gzipSync(code, { level: 9 }), gunzipSync],
      ] as const;
      for (const [suffix, compress, decompress] of copies) {
        if (!existsSync(join(outDir, `${file}${suffix}`)) && compress(compressed).length >= compressed.length) continue;
        expect(existsSync(join(outDir, `${file}${suffix}`)), `${file}${suffix}`).toBe(true);
        expect(decompress(readFileSync(join(outDir, `${file}${suffix}`))).equals(original), `${file}${suffix}`).toBe(true);
      }
    }
  });

  it('marks every script of 2 KB or more a page loads first for eager compilation (V8 compile hints), and not the preview', () => {
    const pages = builtTexts(outDir).filter((f) => f.file.endsWith('.html'));
    for (const { file, text } of pages) {
      for (const script of pageScripts(outDir, text)) {
        const code = readFileSync(join(outDir, script), 'utf8');
        const hinted = code.startsWith(COMPILE_HINT);
        // packages/vite-plugin leaves a smaller chunk (a step's screen, a language's texts) unmarked.
        expect(hinted, `${script} of ${relative(outDir, file)}`).toBe(code.length - (hinted ? COMPILE_HINT.length : 0) >= 2048);
      }
    }
    const preview = builtTexts(outDir).filter((f) => /[\\/]preview-[\w-]+\.js$/.test(f.file));
    expect(preview).toHaveLength(1);
    expect(preview[0]!.text).not.toContain('allFunctionsCalledOnLoad');
  });

  it('has no inline script in any page, prerendered ones included, so the strict script-src of the CSP holds', () => {
    const pages = builtTexts(outDir).filter((f) => f.file.endsWith('.html'));
    expect(pages.map((f) => relative(outDir, f.file)).sort()).toEqual([
      'first-screens/availability.en.html',
      'first-screens/availability.es.html',
      'first-screens/background-check.en.html',
      'first-screens/background-check.es.html',
      'first-screens/opening/en.html',
      'first-screens/opening/es.html',
      'first-screens/safety-training.en.html',
      'first-screens/safety-training.es.html',
      'first-screens/work-authorization.en.html',
      'first-screens/work-authorization.es.html',
      'index.html',
    ]);
    for (const { text: html } of pages) {
      for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
        expect(match[1]).toMatch(/\bsrc=/);
        expect(match[2]?.trim()).toBe('');
      }
      expect(html).not.toMatch(/\son[a-z]+=/i);
    }
  });

  it('prerenders the first step of the safety training into a copy of the page per language, preloading what it needs', () => {
    const plain = readFileSync(join(outDir, 'index.html'), 'utf8');
    const page = readFileSync(join(outDir, 'first-screens/safety-training.en.html'), 'utf8');
    expect(plain).toContain('<div id="root"></div>');
    // The plain page's scripts, plus the workflow's module of screens, less the table of every workflow's screens
    // (virtual:partner-task-kit/screens): #root names the file of its own (packages/page/src/workflows/workflow-views.tsx).
    const table = /\/screens-[\w-]+\.js$/;
    expect(initialScripts(outDir).filter((script) => table.test(script))).toHaveLength(1);
    for (const script of initialScripts(outDir).filter((script) => !table.test(script))) expect(page).toContain(`"${script}"`);
    expect(page).not.toMatch(/\/screens-[\w-]+\.js/);
    const screens = /<link rel="modulepreload" crossorigin href="(\/assets\/safety-training-[\w-]+\.js)">/.exec(page);
    expect(screens).not.toBeNull();
    // Its language's texts, and nothing the first step does not need: not the Spanish texts, not the later steps, each
    // a chunk of its own (the first step's screen, steps/welcome.tsx, is in the workflow's chunk).
    expect(page).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/texts\.en-[\w-]+\.js">/);
    expect(page).not.toMatch(/texts\.es-|\/(welcome|policy|quiz|signature)-[\w-]+\.js/);
    const later = builtTexts(outDir).filter((f) => /[\\/](policy|quiz|signature)-[\w-]+\.js$/.test(f.file));
    expect(later.map((f) => /(policy|quiz|signature)-/.exec(f.file)?.[1]).sort()).toEqual(['policy', 'quiz', 'signature']);
    const root = /<div id="root" data-first-screen="([^"]+)">([\s\S]*)<\/div>\s*<\/body>/.exec(page);
    expect(JSON.parse(root![1]!.replaceAll('&quot;', '"'))).toEqual({
      locale: 'en',
      workflow: {
        id: 'safety-training',
        estimatedMinutes: 10,
        steps: [{ id: 'welcome' }, { id: 'policy' }, { id: 'quiz' }, { id: 'signature' }],
        longestPath: 4,
      },
      screens: screens![1],
    });
    expect(root![2]).toContain('<p class="progress-text" id="progress-text">Step 1 of 4</p>');
    expect(root![2]).toContain('<p class="estimate">It takes about 10 minutes.');
    expect(root![2]).toContain('<button type="button" class="button button-primary">Begin the training</button>');
    // The step itself, not the loading fallback of its lazy screen, and in no Suspense boundary, which React would
    // hydrate in a later pass (packages/page/src/workflows/lazy-screen.tsx).
    expect(root![2]).not.toContain('Loading');
    expect(root![2]).not.toContain('<!--$');
  });

  it('contains no secret: configured credentials, the answer key or its rationales', () => {
    const all = builtTexts(outDir)
      .map((f) => f.text)
      .join('\n');
    for (const secret of [...Object.values(TEST_SECRETS), EMULATOR_CREDENTIAL.secret, ...answerRationales])
      expect(all).not.toContain(secret);
    // The answer key's shape, as a minifier would print it, for any question: exits:{correct:"b"...}.
    expect(all).not.toMatch(/correct\s*:\s*["'][abc]["']/);
    expect(all).not.toContain('gradeQuiz');
  });

  it('with source maps on (an error tracker needs them), maps the hinted scripts to the lines they came from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptk-maps-'));
    try {
      await buildPage({ outDir: dir, sourcemap: true });
      // A string of the entry's own source, which the minifier keeps as it is: where it is, and where the map says.
      const marker = 'index.html has no #root';
      const entry = readFileSync(resolve('src/main.tsx'), 'utf8').split('\n');
      const entryScript = initialScripts(dir).find((script) => readFileSync(join(dir, script), 'utf8').includes(marker));
      expect(entryScript).toBeDefined();
      const code = readFileSync(join(dir, entryScript!), 'utf8');
      expect(code.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
      const before = code.slice(0, code.indexOf(marker)).split('\n');
      const map = new SourceMapConsumer(JSON.parse(readFileSync(join(dir, `${entryScript}.map`), 'utf8')) as RawSourceMap);
      // The string's opening quote, the start of a token the map names.
      const original = map.originalPositionFor({ line: before.length, column: before.at(-1)!.length - 1 });
      expect(original.source).toMatch(/src\/main\.tsx$/);
      expect(entry[original.line - 1]).toContain(marker);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses to build page code that imports a server-only module', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptk-leak-'));
    const entry = join(dir, 'leak.ts');
    writeFileSync(
      entry,
      `import { answerRationales } from '${resolve('src/workflows/safety-training/definition.server.ts')}';\nconsole.log(answerRationales);\n`,
    );
    try {
      await expect(buildPage({ outDir: join(dir, 'out'), input: entry })).rejects.toThrow(/server-only/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the page build, which finds the app’s workflows by their folders (packages/vite-plugin)', () => {
  // Nothing is written: the build stops before, or its output is not looked at.
  const buildWith = async (options: PartnerTaskKitOptions, root = process.cwd()) => {
    const { build } = await import('vite');
    return build({ root, configFile: false, logLevel: 'silent', plugins: partnerTaskKit(options), build: { write: false } });
  };

  it('names the option and the file it looked for when the shell texts are not where it is told', async () => {
    await expect(buildWith({ shellTexts: 'src/texts.ts' })).rejects.toThrow(
      `partnerTaskKit({ shellTexts: 'src/texts.ts' }): there is no ${resolve('src/texts.ts')}`,
    );
  });

  it('refuses shell texts the page is not handed: the first screens would say what the hydrated page does not', async () => {
    const notHanded = 'src/workflows/safety-training/texts.en.ts';
    await expect(buildWith({ shellTexts: notHanded })).rejects.toThrow(
      `partnerTaskKit({ shellTexts: '${notHanded}' }): the page's entry does not import it`,
    );
  }, 120_000);

  // docs/architecture.md#a-workflow-is-a-folder: a folder off the convention stops the build, naming the file to change.
  it.each([
    {
      mistake: 'a step with no screen',
      make: (copy: string) => rmSync(join(copy, 'src/workflows/background-check/steps/check.tsx')),
      message:
        'src/workflows/background-check/definition.ts: step "check" has no screen: add src/workflows/background-check/steps/check.tsx',
    },
    {
      mistake: 'a screen of no step',
      make: (copy: string) =>
        cpSync(join(copy, 'src/workflows/background-check/steps/check.tsx'), join(copy, 'src/workflows/background-check/steps/review.tsx')),
      message: 'src/workflows/background-check/steps/review.tsx: src/workflows/background-check/definition.ts has no step "review"',
    },
    {
      mistake: 'a duplicate id',
      make: (copy: string) =>
        cpSync(join(copy, 'src/workflows/availability'), join(copy, 'src/workflows/availability-copy'), { recursive: true }),
      message:
        'src/workflows/availability-copy/definition.ts: id "availability" is already the id of src/workflows/availability/definition.ts',
    },
  ])(
    'stops on $mistake, naming the file',
    async ({ make, message }) => {
      const copy = await copyProject();
      try {
        make(copy);
        await expect(buildWith({}, copy)).rejects.toThrow(message);
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

/**
 * What a partner's own workflows cost the links of the others: none of a link's first page is theirs. Five are added
 * to a copy of this project as a partner adds them, with `npm run new-workflow`, one of whose screens then reads the
 * task through the API client, as a step that shows what was saved would.
 */
const partnerWorkflows = ['claims-intake', 'equipment-check', 'shift-swap', 'tax-forms', 'uniform-order'];

/** A link's first page may grow by this much with them: the index page's table of every workflow's screens. */
const GROWTH_ALLOWED_BYTES = 1024;

describe('the first pages after a partner adds five workflows with npm run new-workflow', () => {
  let copy = '';
  const before = mkdtempSync(join(tmpdir(), 'ptk-dist-before-'));
  const after = mkdtempSync(join(tmpdir(), 'ptk-dist-after-'));
  beforeAll(async () => {
    copy = await copyProject();
    await buildPage({ root: copy, outDir: before, sourcemap: 'hidden' });
    for (const id of partnerWorkflows) {
      const made = await runIn(copy, 'npm', ['run', '--silent', 'new-workflow', '--', id]);
      if (made.code !== 0) throw new Error(`npm run new-workflow -- ${id}: ${made.output}`);
    }
    const screen = join(copy, 'src/workflows/tax-forms/steps/contact.tsx');
    const source = readFileSync(screen, 'utf8');
    const body = 'const savingText = useShellTexts().saving;';
    if (!source.includes(body)) throw new Error(`${screen} no longer has "${body}" to read the task after`);
    writeFileSync(
      screen,
      [
        "import { useQuery } from '@tanstack/react-query';",
        "import { useApiClient } from '@partner-task-kit/page/api/api-client-context';",
        "import { taskQueryOptions } from '@partner-task-kit/page/api/get-task';",
        source.replace(
          body,
          `${body}\n  const stored = useQuery(taskQueryOptions(useApiClient())).data?.stepData;\n  console.info(stored);`,
        ),
      ].join('\n'),
    );
    await buildPage({ root: copy, outDir: after, sourcemap: 'hidden' });
  }, 600_000);
  afterAll(() => {
    for (const dir of [before, after, copy]) if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every link’s first page within the budget and within 1 KB gzip of its size without them', () => {
    const pagesBefore = builtPages(before);
    const pagesAfter = builtPages(after);
    // Every workflow's first screen is prerendered (docs/architecture.md#a-workflow-is-a-folder): the five new ones
    // have pages of their own, within the budget; the pages there were before grow by little.
    for (const page of pagesBefore.keys()) expect(pagesAfter.has(page), page).toBe(true);
    for (const id of partnerWorkflows)
      expect(
        [...pagesAfter.keys()].filter((page) => page.includes(`/${id}.`)),
        id,
      ).toHaveLength(2);
    for (const [page, html] of pagesAfter) {
      const now = pageWeight(after, html, copy);
      const previous = pagesBefore.get(page);
      if (previous === undefined) {
        expect(now.total, overBudget(page, now)).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
        continue;
      }
      const was = pageWeight(before, previous, copy);
      console.info(`${page}: ${was.total} -> ${now.total} B gzip of JavaScript (${was.scripts.length} -> ${now.scripts.length} files)`);
      const growth = `${page} grew by ${now.total - was.total} B gzip with five workflows it does not run:\n${describeGrowth(was, now)}`;
      expect(now.total, `${overBudget(page, now)}\n${growth}`).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
      expect(now.total - was.total, growth).toBeLessThanOrEqual(GROWTH_ALLOWED_BYTES);
    }
  });

  it('carries no module of another workflow on a link’s first page, and none of any on the index page', () => {
    for (const [page, html] of builtPages(after)) {
      const own = /^first-screens\/([\w-]+)\.[\w-]+\.html$/.exec(page)?.[1];
      const modules = pageWeight(after, html, copy).scripts.flatMap((script) => [...script.modules.keys()]);
      expect(modules.length, `${page}: the build wrote no source maps to read`).toBeGreaterThan(0);
      const others = modules.filter((module) => {
        const workflow = /^src\/workflows\/([^/]+)\//.exec(module)?.[1];
        return workflow !== undefined && workflow !== own;
      });
      expect(others, `${page} carries modules of workflows it does not run`).toEqual([]);
    }
  });
});
