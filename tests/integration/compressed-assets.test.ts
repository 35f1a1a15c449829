import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTaskApp, type TaskApp } from '../helpers/task-app';

describe('the page assets, compressed (bench/page.ts: LCP on Slow 4G)', () => {
  let t: TaskApp;
  let page: string;
  const script = `export const text = ${JSON.stringify('a compressible line of the page. '.repeat(200))};`;
  beforeAll(async () => {
    page = mkdtempSync(join(tmpdir(), 'ptk-page-'));
    mkdirSync(join(page, 'assets'));
    writeFileSync(join(page, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(page, 'assets', 'index-abc.js'), script);
    writeFileSync(join(page, 'assets', 'logo-abc.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await openTaskApp({ pageDirectory: page });
  });
  afterAll(async () => {
    await t.close();
    rmSync(page, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) => t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends a script gzipped to a browser that accepts gzip, with its type and immutable caching', async () => {
    const response = await get('/assets/index-abc.js', 'gzip, deflate');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-type']).toMatch(/^text\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/);
    expect(response.headers['cache-control']).toContain('immutable');
    expect(gunzipSync(response.rawPayload).toString()).toBe(script);
    expect(response.rawPayload.length).toBeLessThan(script.length / 5);
  });

  it('sends brotli once it is ready, and the file as it is to a client that accepts neither', async () => {
    let response = await get('/assets/index-abc.js', 'gzip, br');
    for (let tries = 0; response.headers['content-encoding'] !== 'br' && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      response = await get('/assets/index-abc.js', 'gzip, br');
    }
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/index-abc.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('leaves other files to the static server and refuses unknown and unsafe names', async () => {
    expect((await get('/assets/logo-abc.svg', 'gzip')).statusCode).toBe(200);
    expect((await get('/assets/missing-abc.js', 'gzip')).statusCode).toBe(404);
    // A name that decodes to a path (`..%2f` is `../`) is refused before any file is looked up.
    for (const unsafe of ['/assets/..%2findex.html', '/assets/..%2f..%2fpackage.json', '/assets/.hidden.js', '/assets/a%5cb.js']) {
      const response = await get(unsafe, 'gzip');
      expect(response.statusCode, unsafe).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });
});
