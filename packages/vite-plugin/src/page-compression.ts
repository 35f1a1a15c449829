import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import type { AppWorkflows } from './app-workflows.ts';
import { firstScreenChunks } from './first-screen-chunks.ts';

/**
 * The page's text files compressed once, at build time, at the highest levels (packages/kit-tests/bench/page.ts: on
 * Slow 4G the uncompressed entry chunk's download alone was most of the LCP). The server sends `<file>.br` or
 * `<file>.gz` by Accept-Encoding (@fastify/static preCompressed, packages/server/src/page/page-routes.ts) and the
 * original to a client that offers neither, so the originals stay. Brotli at quality 11 is slow on the entry chunk:
 * affordable once per build, never per request.
 */
const brotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } };
const gzipOptions = { level: 9 };

export function compressPage(): Plugin {
  return compression({
    include: /\.(js|css|html|svg)$/,
    algorithms: [defineAlgorithm('brotliCompress', brotliOptions), defineAlgorithm('gzip', gzipOptions)],
    deleteOriginalAssets: false,
  });
}

/**
 * V8's explicit compile hint, `//# allFunctionsCalledOnLoad` on a script's first line (Chrome 136 on; other engines
 * read a comment), on the chunks a first screen runs: their functions are compiled in one pass with the script, which
 * V8 starts on a background thread as the script streams in, instead of one by one on the main thread as hydration
 * first calls them. packages/kit-tests/bench/page.ts, traced (BENCH_PAGE_TRACE, 5 loads each): the main thread's work from the app
 * chunk's arrival to the first step's hydration 186-321 ms without, 70-119 ms with. The hint must come before any
 * code, so it is added once Vite has written the chunk's own first line (its preload map), in the last
 * generateBundle, and that chunk's compressed copies are written again. Not on a chunk of less than HINTED_MIN_BYTES:
 * its few functions compile in next to no time either way, and the line would weigh on every link's budget (each step's
 * screen and each language's texts are a small chunk of their own, docs/architecture.md#a-workflow-is-a-folder).
 */
const HINTED_MIN_BYTES = 2048;

export function compileHintsForFirstScreens(workflows: AppWorkflows): Plugin {
  return {
    name: 'compile-hints-for-first-screens',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const fileName of firstScreenChunks(bundle, workflows)) {
          const chunk = bundle[fileName];
          if (chunk?.type !== 'chunk' || chunk.code.length < HINTED_MIN_BYTES) continue;
          chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
          // The code moved down one line: its source map file (with --sourcemap), already in the bundle, gains an empty
          // first line to match.
          const map = bundle[`${fileName}.map`];
          if (map?.type === 'asset') {
            const parsed = JSON.parse(String(map.source)) as { mappings: string };
            map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
          }
          for (const [suffix, compress] of [
            ['.br', (code: string) => brotliCompressSync(code, brotliOptions)],
            ['.gz', (code: string) => gzipSync(code, gzipOptions)],
          ] as const) {
            const copy = bundle[`${fileName}${suffix}`];
            if (copy?.type === 'asset') copy.source = compress(chunk.code);
          }
        }
      },
    },
  };
}
