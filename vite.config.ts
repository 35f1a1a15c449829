import { constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/** Where `npm run dev` (scripts/dev.ts) forwards API and emulator calls: the server it starts on the default PORT. */
const serverUrl = 'http://127.0.0.1:8787';

/**
 * DESIGN decision 1: secrets such as quiz answers never reach the browser. A `.server.ts` module or anything under
 * server/ imported by page code stops the build instead of being bundled.
 */
function refuseServerModules(): Plugin {
  return {
    name: 'refuse-server-modules',
    enforce: 'pre',
    load(id) {
      const path = id.split('?')[0] ?? id;
      if (/\.server\.tsx?$/.test(path) || /[\\/]server[\\/]/.test(path.replace(process.cwd(), ''))) {
        this.error(`${path} is server-only and must not be imported by the page`);
      }
      return null;
    },
  };
}

/**
 * The app chunk, imported dynamically by src/main.tsx once the session request is sent, is preloaded from index.html
 * with its static imports: otherwise the browser would learn of it only when main.tsx runs, one more round trip on a
 * slow network (bench/page.ts). The workflows' screens are not preloaded here: fetched when the app starts
 * (registry.views.ts), they still arrive before the session's answer is rendered, and preloading them competed with
 * the app chunk for bandwidth (measured LCP 1,436 ms with, 1,408 ms without).
 */
const preloadedDynamicImports = [/[\\/]src[\\/]app-root\.tsx$/];

function preloadTaskPageChunks(): Plugin {
  return {
    name: 'preload-task-page-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle ?? {};
        const files = new Set<string>();
        const add = (fileName: string) => {
          const chunk = bundle[fileName];
          if (files.has(fileName) || chunk?.type !== 'chunk') return;
          files.add(fileName);
          // Its static imports too: otherwise they are found only when the chunk itself has arrived.
          for (const imported of chunk.imports) add(imported);
        };
        for (const item of Object.values(bundle)) {
          if (
            item.type === 'chunk' &&
            item.isDynamicEntry &&
            preloadedDynamicImports.some((pattern) => pattern.test(item.facadeModuleId ?? ''))
          ) {
            add(item.fileName);
          }
        }
        return [...files]
          .filter((fileName) => !html.includes(`/${fileName}"`))
          .map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

/**
 * The page's text files compressed once, at build time, at the highest levels (bench/page.ts: on Slow 4G the
 * uncompressed entry chunk alone took about 1.8 s to download, most of the LCP). The server sends `<file>.br` or
 * `<file>.gz` by Accept-Encoding (@fastify/static preCompressed, server/page/page-routes.ts) and the original to a
 * client that offers neither, so the originals stay. Brotli at quality 11 takes about a second for the entry chunk:
 * affordable once per build, never per request.
 */
function compressPage(): Plugin {
  return compression({
    include: /\.(js|css|html|svg)$/,
    algorithms: [
      defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      defineAlgorithm('gzip', { level: 9 }),
    ],
    deleteOriginalAssets: false,
  });
}

export default defineConfig({
  plugins: [react(), refuseServerModules(), preloadTaskPageChunks(), compressPage()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No data: URLs for scripts and nothing inline: the CSP allows scripts from this origin only.
    assetsInlineLimit: 0,
    // Every browser the portal supports preloads modules itself (Chrome 66, Firefox 115, Safari 17); an older one
    // only loads a little later. The polyfill was 1.6 KB of the entry chunk, run before the session request.
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  server: {
    port: 5173,
    // Both loopback names must reach it: the preview at localhost frames the task page at 127.0.0.1,
    // another site, as the real portal does.
    host: '127.0.0.1',
    proxy: { '/api': serverUrl, '/emulator': serverUrl, '/healthz': serverUrl },
  },
});
