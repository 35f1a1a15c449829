import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { previewModule } from '@partner-task-kit/vite-plugin/preview-module';

/**
 * The page's build and the preview portal (packages/vite-plugin/src/preview-module.ts): the chunk of
 * @partner-task-kit/dev where it is installed, as it is here, and none where the build's environment leaves it out, as
 * the production image's build does (Dockerfile).
 */

/** A string of the preview's own code (packages/dev/src/preview/preview-route.tsx), and of the notice in its place. */
const PREVIEW_CODE = 'Preview portal · partner-task-kit';
const NOTICE = 'The preview portal is not in this build';

const outDirs: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const dir of outDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The entry's build, as the page's is made: this repository's sources through tsconfig paths; all its scripts' text. */
async function buildEntry(previewEnabled: string | undefined): Promise<string> {
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'ptk-preview-build-'));
  outDirs.push(outDir);
  vi.stubEnv('PREVIEW_ENABLED', previewEnabled);
  await build({
    configFile: false,
    root: process.cwd(),
    logLevel: 'silent',
    plugins: [previewModule()],
    resolve: { tsconfigPaths: true },
    build: { outDir, emptyOutDir: true, minify: false, rollupOptions: { input: 'packages/kit-tests/fixtures/preview-build/entry.ts' } },
  });
  const scripts = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  return scripts.map((file) => readFileSync(join(outDir, file), 'utf8')).join('\n');
}

describe("the preview portal in the page's build", () => {
  it('is the chunk of @partner-task-kit/dev where the package is installed', async () => {
    const code = await buildEntry(undefined);
    expect(code).toContain(PREVIEW_CODE);
    expect(code).not.toContain(NOTICE);
  }, 120_000);

  it('is left out, a notice in its place, with PREVIEW_ENABLED=false', async () => {
    const code = await buildEntry('false');
    expect(code).not.toContain(PREVIEW_CODE);
    expect(code).toContain(NOTICE);
  }, 120_000);
});
