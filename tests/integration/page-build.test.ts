import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_CREDENTIAL } from '../../server/emulator/emulator-credential';
import { answerRationales } from '../../src/workflows/safety-training/definition.server';
import { buildPage, builtTexts, gzipBytes, initialScripts } from '../helpers/page-build';
import { TEST_SECRETS } from '../helpers/task-app';

/**
 * The task page's initial JavaScript is at most 120 KB gzip (BENCHMARKS.md's budget: the worker opens it on a phone,
 * often on a slow network); the preview and workflow screens load lazily and do not count.
 */
const INITIAL_JS_BUDGET_BYTES = 120 * 1000;

describe('the production build of the page', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'ptk-dist-'));
  beforeAll(async () => {
    await buildPage({ outDir });
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('keeps the task page initial JavaScript within 120 KB gzip', () => {
    const scripts = initialScripts(outDir);
    expect(scripts.length).toBeGreaterThan(0);
    const total = scripts.reduce((sum, script) => sum + gzipBytes(outDir, script), 0);
    console.info(`task page initial JS: ${(total / 1000).toFixed(1)} KB gzip in ${scripts.length} file(s)`);
    expect(total).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });

  it('writes a brotli and a gzip copy beside the page and each initial script, equal to it once decompressed', () => {
    // The server sends these (preCompressed); the budget above is still the gzip of the originals, as before.
    for (const file of ['/index.html', ...initialScripts(outDir)]) {
      const original = readFileSync(join(outDir, file));
      expect(existsSync(join(outDir, `${file}.br`)), `${file}.br`).toBe(true);
      expect(brotliDecompressSync(readFileSync(join(outDir, `${file}.br`))).equals(original), `${file}.br`).toBe(true);
      expect(gunzipSync(readFileSync(join(outDir, `${file}.gz`))).equals(original), `${file}.gz`).toBe(true);
    }
  });

  it('has no inline script, so the strict script-src of the CSP holds', () => {
    const html = builtTexts(outDir).find((f) => f.file.endsWith('index.html'))!.text;
    for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      expect(match[1]).toMatch(/\bsrc=/);
      expect(match[2]?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
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
