import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { apiError } from '../api-error.ts';
import { firstScreenPicker, inlineStyleSources } from './first-screen-file.ts';
import { allowInlineStyles } from './security-headers.ts';
import type { Config } from '../config.ts';

/** Client-side routes that answer with the page itself (packages/page/src/app-routes.tsx): the task page and, when enabled, the preview. */
const taskPageRoutes = ['/'];
const previewRoutes = ['/preview', '/preview/*'];

/**
 * Each segment of a served path is a flat name: no separator, no leading dot, nothing empty. `..%2f` decodes to
 * `../` before the static server sees it, so this is what keeps every request inside the build and away from its
 * directories (a trailing slash leaves an empty segment).
 */
const flatSegment = /^[\w-][\w.-]*$/;
const isServablePath = (pathname: string) =>
  pathname
    .replace(/^\//, '')
    .split('/')
    .every((segment) => flatSegment.test(segment));

const LEGACY_JAVASCRIPT = 'application/javascript';

/**
 * Serves the built page (`npm run build` writes dist/). Without a build the routes answer 503 with what to do, so an
 * API-only test or a fresh checkout still starts.
 */
export async function registerPageRoutes(
  app: FastifyInstance,
  pageDirectory: string,
  config: Config,
  defaultWorkflow: string,
): Promise<void> {
  const options = { preview: config.previewEnabled };
  const pageRoutes = options.preview ? [...taskPageRoutes, ...previewRoutes] : taskPageRoutes;
  if (!existsSync(join(pageDirectory, 'index.html'))) {
    for (const url of pageRoutes) {
      app.get(url, async () => {
        throw apiError('page_not_built', 'The task page is not built: run "npm run build", then restart the server.');
      });
    }
    return;
  }
  // A scope of their own, so the hook below sees the page's files only, never an API answer.
  await app.register(async (page) => {
    await page.register(fastifyStatic, {
      root: pageDirectory,
      // index: false and no directory listing: only files that exist are served; anything else falls to the JSON 404.
      index: false,
      wildcard: true,
      list: false,
      dotfiles: 'deny',
      allowedPath: isServablePath,
      // The build writes `<file>.br` and `<file>.gz` beside each script, style, SVG and index.html (packages/vite-plugin/src/index.ts):
      // sent by Accept-Encoding, brotli first, the original when neither is offered or a variant is missing (a file
      // too small to gain from compression has none). This covers reply.sendFile too, so the first screen's HTML is
      // small.
      preCompressed: true,
      // The body depends on Accept-Encoding, so a shared cache must key on it. Said of every file: it costs nothing
      // and cannot drift from the build's list of compressed types.
      setHeaders: (response) => response.setHeader('vary', 'accept-encoding'),
      // cacheControl off: security-headers.ts decides (hashed assets immutable, the page revalidated).
      cacheControl: false,
    });
    // The static server's MIME table still says application/javascript; RFC 9239 made text/javascript the one type.
    page.addHook('onSend', async (_request, reply) => {
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && type.startsWith(LEGACY_JAVASCRIPT))
        reply.type(`text/javascript${type.slice(LEGACY_JAVASCRIPT.length)}`);
    });
    const pickFirstScreen = firstScreenPicker(pageDirectory, defaultWorkflow);
    const firstScreenStyles = inlineStyleSources(pageDirectory);
    for (const url of taskPageRoutes) {
      page.get(url, (request, reply) => {
        const firstScreen = pickFirstScreen(request.query, request.headers['accept-language']);
        if (firstScreen) {
          // The answer depends on the language too: a shared cache must not hand a Spanish first step to an English page.
          reply.header('vary', 'accept-encoding, accept-language');
          allowInlineStyles(config, request, reply, firstScreenStyles);
        }
        return reply.sendFile(firstScreen ?? 'index.html');
      });
    }
    for (const url of options.preview ? previewRoutes : []) {
      page.get(url, (_request, reply) => reply.sendFile('index.html'));
    }
  });
}
