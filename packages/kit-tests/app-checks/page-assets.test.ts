import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPage, initialScripts } from '../helpers/page-build';
import { bearer, newContext, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';

/** A page directory laid out as the build writes it: originals, and `.br`/`.gz` beside those worth compressing. */
function writePage(files: Record<string, string>, variants: Record<string, Array<'br' | 'gz'>>): string {
  const page = mkdtempSync(join(tmpdir(), 'ptk-page-'));
  mkdirSync(join(page, 'assets'));
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(page, name), text);
    for (const variant of variants[name] ?? []) {
      writeFileSync(join(page, `${name}.${variant}`), variant === 'br' ? brotliCompressSync(text) : gzipSync(text, { level: 9 }));
    }
  }
  return page;
}

describe('the page assets, compressed at build time (packages/kit-tests/bench/page.ts: LCP on Slow 4G)', () => {
  let t: TaskApp;
  let page: string;
  const html = `<!doctype html><title>t</title>${'<!-- the first screen of the task page -->'.repeat(20)}`;
  const script = `export const text = ${JSON.stringify('a compressible line of the page. '.repeat(200))};`;
  const style = `.step { margin: 0; }\n`.repeat(100);
  beforeAll(async () => {
    page = writePage(
      {
        'index.html': html,
        'assets/index-abc.js': script,
        'assets/index-abc.css': style,
        'assets/logo-abc.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
        'assets/only-gzip-abc.js': script,
      },
      {
        'index.html': ['br', 'gz'],
        'assets/index-abc.js': ['br', 'gz'],
        'assets/index-abc.css': ['br', 'gz'],
        'assets/only-gzip-abc.js': ['gz'],
      },
    );
    t = await openTaskApp({ pageDirectory: page });
  });
  afterAll(async () => {
    await t.close();
    rmSync(page, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends a script as brotli to a browser that offers it, with its type and immutable caching', async () => {
    const response = await get('/assets/index-abc.js', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
    expect(response.rawPayload.length).toBeLessThan(script.length / 5);
  });

  it('sends gzip to a browser that offers gzip only, or refuses brotli with q=0', async () => {
    for (const encoding of ['gzip, deflate', 'br;q=0, gzip']) {
      const response = await get('/assets/index-abc.js', encoding);
      expect(response.headers['content-encoding'], encoding).toBe('gzip');
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(gunzipSync(response.rawPayload).toString()).toBe(script);
    }
  });

  it('sends the file as it is to a client that offers no encoding it knows', async () => {
    for (const encoding of [undefined, 'identity', 'deflate']) {
      const response = await get('/assets/index-abc.js', encoding);
      expect(response.statusCode, String(encoding)).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.body).toBe(script);
    }
  });

  it('compresses styles too', async () => {
    const response = await get('/assets/index-abc.css', 'br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(style);
  });

  it('falls back to the variant that exists, then to the original (the build skips what compression would not shrink)', async () => {
    const gzipOnly = await get('/assets/only-gzip-abc.js', 'br, gzip');
    expect(gzipOnly.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipOnly.rawPayload).toString()).toBe(script);
    const svg = await get('/assets/logo-abc.svg', 'br, gzip');
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-encoding']).toBeUndefined();
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.headers['cache-control']).toContain('immutable');
  });

  it('serves the page itself precompressed, revalidated, with its security headers', async () => {
    const response = await get('/', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(html);
    const plain = await get('/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(html);
  });

  it('answers the JSON 404 for unknown assets, unsafe names and directories, never a listing', async () => {
    // `..%2f` decodes to `../`: a name that would leave assets/ (or the build) is refused before any file is read.
    for (const url of [
      '/assets/missing-abc.js',
      '/assets/..%2findex.html',
      '/assets/..%2f..%2fpackage.json',
      '/..%2fpackage.json',
      '/assets/.hidden.js',
      '/assets/a%5cb.js',
      '/assets/',
      '/assets',
    ]) {
      const response = await get(url, 'gzip, br');
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ error: { code: 'not_found' } });
    }
  });
});

describe('the preview routes, when the preview is on', () => {
  let t: TaskApp;
  let page: string;
  const html = `<!doctype html><title>preview</title>${'<!-- the page -->'.repeat(20)}`;
  beforeAll(async () => {
    page = writePage({ 'index.html': html }, { 'index.html': ['br', 'gz'] });
    t = await openTaskApp({ pageDirectory: page, env: { PREVIEW_ENABLED: 'true' } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(page, { recursive: true, force: true });
  });

  it('answer with the page, compressed like the task page', async () => {
    for (const url of ['/preview', '/preview/tasks/22222222-2222-4222-8222-222222222222']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(response.rawPayload).toString()).toBe(html);
    }
  });
});

describe('the production build, served', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'ptk-dist-served-'));
  let t: TaskApp;
  beforeAll(async () => {
    await buildPage({ outDir });
    t = await openTaskApp({ pageDirectory: outDir });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('sends index.html and every initial script as the brotli the build wrote', async () => {
    for (const [url, file] of [['/', '/index.html'], ...initialScripts(outDir).map((script) => [script, script] as const)] as const) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(response.rawPayload).equals(readFileSync(join(outDir, file))), url).toBe(true);
    }
  });

  const link = (extra: Record<string, string> = {}) => `/?${new URLSearchParams({ ...extra, ...newContext() }).toString()}`;

  it('answers a link with its context with the first step already in the HTML, in the browser language', async () => {
    const english = await t.app.inject({ method: 'GET', url: link(), headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(english.statusCode).toBe(200);
    expect(english.body).toContain('<html lang="en"');
    expect(english.body).toMatch(/<div id="root" data-first-screen="[^"]+"><div class="shell">/);
    expect(english.body).toContain('<h1 id="step-title" tabindex="-1" class="screen-title">Workplace safety training</h1>');
    expect(english.body).toContain('>Begin the training</button>');
    expect(english.headers.vary).toMatch(/accept-language/i);
    expect(english.headers['content-security-policy']).toContain("script-src 'self'");
    // Its stylesheet is in the HTML (one round trip less before the first paint), allowed by its hash and no other way.
    const style = /<style>([\s\S]*?)<\/style>/.exec(english.body)?.[1];
    expect(style).toContain('.button');
    // Its link stays for Vite's loader to find, disabled: neither fetched nor applied.
    expect([...english.body.matchAll(/<link[^>]*rel="stylesheet"[^>]*>/g)].map((match) => match[0])).toEqual([
      expect.stringMatching(/^<link disabled rel="stylesheet"/),
    ]);
    const hash = createHash('sha256').update(style!).digest('base64');
    expect(english.headers['content-security-policy']).toContain(`style-src 'self' 'sha256-${hash}';`);
    expect(english.headers['content-security-policy']).not.toContain('unsafe-inline');

    const spanish = await t.app.inject({ method: 'GET', url: link(), headers: { 'accept-language': 'es-MX,es;q=0.9' } });
    expect(spanish.body).toContain('<html lang="es"');
    expect(spanish.body).toContain('>Formación en seguridad laboral</h1>');
    expect(spanish.body).toContain('<title>Tarea de incorporación</title>');
  });

  it('answers an availability link with its start date step, its date picker without the bounds of a day the build cannot know', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: link({ workflow: 'availability' }),
      headers: { 'accept-language': 'es-MX,es;q=0.9' },
    });
    expect(response.body).toContain('<html lang="es"');
    expect(response.body).toMatch(/<div id="root" data-first-screen="[^"]+">/);
    expect(response.body).toContain('>¿Cuándo puedes empezar?</h1>');
    const picker = /<input[^>]*id="start-date"[^>]*>/.exec(response.body)?.[0];
    expect(picker).toContain('type="date"');
    // The worker's today bounds it once the page has hydrated (src/workflows/availability/start-step.tsx).
    expect(picker).not.toMatch(/\b(min|max)=/);
  });

  it('creates no task and enqueues no update on a GET of the page (a link scanner changes nothing)', async () => {
    for (const url of [link(), link({ workflow: 'availability' }), link({ workflow: 'safety-training' })]) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(response.statusCode, url).toBe(200);
    }
    expect(await t.database.store.db.selectFrom('tasks').select('id').execute()).toEqual([]);
    expect(await t.database.store.db.selectFrom('outbox').select('id').execute()).toEqual([]);
    expect(t.wakes()).toBe(0);
  });

  it('answers the link of a task under way with the opening screen: no step, no progress, no button, its styles allowed', async () => {
    const { context, token } = await openSession(t.app);
    const saved = await t.app.inject({ method: 'POST', url: '/api/task/steps/welcome', headers: bearer(token), payload: { data: {} } });
    expect(saved.statusCode, saved.body).toBe(200);
    const url = `/?${new URLSearchParams(context).toString()}`;
    const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'es-MX,es;q=0.9' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.body).toContain('<html lang="es"');
    // The page hydrates it (packages/page/src/app-root.tsx): what task-session.tsx renders before the task's view comes.
    expect(response.body).toContain(
      '<div id="root" data-opening="es"><div class="shell"><main class="page"><p role="status" class="opening">Abriendo tu tarea…</p></main></div></div>',
    );
    expect(response.body).not.toMatch(/<button|<h1|Paso \d de/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(response.body)?.[1];
    const hash = createHash('sha256').update(style!).digest('base64');
    expect(response.headers['content-security-policy']).toContain(`style-src 'self' 'sha256-${hash}';`);
  });

  it('answers with the plain page when it has no first screen for the link: no valid context, or a workflow it does not know', async () => {
    const plain = readFileSync(join(outDir, 'index.html'), 'utf8');
    const broken = new URLSearchParams({ ...newContext(), wxWorkerUuid: 'not-a-uuid' }).toString();
    for (const url of ['/', `/?${broken}`, link({ workflow: 'no-such-workflow' })]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.body, url).toBe(plain);
      // The plain page links its stylesheet: its CSP allows no inline style.
      expect(response.headers['content-security-policy'], url).toContain("style-src 'self';");
    }
  });
});
