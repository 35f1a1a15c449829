import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The scripts a browser fetches before the task page can run: the entry module and what index.html preloads. */
export function initialScripts(outDir: string): string[] {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const sources = [
    ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ];
  return [...new Set(sources.map((match) => match[1]!))];
}

/**
 * What a page of the build (its HTML: index.html or a prerendered first screen) loads before its first step can run:
 * every script it loads and every module it preloads, with their static imports, followed transitively. Dynamic
 * `import()` chunks load later and do not count.
 */
export function pageScripts(outDir: string, html: string): string[] {
  const scripts = new Set<string>();
  const pending = [
    ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((match) => match[1]!.replace(/^\//, ''));
  while (pending.length > 0) {
    const path = pending.pop()!;
    if (scripts.has(path)) continue;
    scripts.add(path);
    // Minified static imports: `import{a as b}from"./x.js"` or `import"./x.js"`, never `import(`.
    for (const match of readFileSync(join(outDir, path), 'utf8').matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g)) {
      pending.push(join(path, '..', match[1]!));
    }
  }
  return [...scripts].map((path) => `/${path}`);
}

export function gzipBytes(outDir: string, urlPath: string): number {
  return gzipSync(readFileSync(join(outDir, urlPath.replace(/^\//, '')))).length;
}

/** Every text file of the build, for greps (JS, CSS, HTML). */
export function builtTexts(outDir: string): { file: string; text: string }[] {
  const files: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(js|css|html|map)$/.test(entry.name)) files.push({ file: path, text: readFileSync(path, 'utf8') });
    }
  };
  walk(outDir);
  return files;
}

/**
 * Builds the page as `npm run build` does. Vitest runs with NODE_ENV=test, which would make Vite bundle React's
 * development build; the production build is what ships and what the budget is about.
 */
export async function buildPage(options: { outDir: string; input?: string; sourcemap?: boolean }): Promise<void> {
  const { build } = await import('vite');
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: resolve('vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: {
        outDir: options.outDir,
        emptyOutDir: true,
        ...(options.sourcemap ? { sourcemap: true } : {}),
        ...(options.input ? { rollupOptions: { input: options.input } } : {}),
      },
    });
  } finally {
    process.env.NODE_ENV = previous;
  }
}
