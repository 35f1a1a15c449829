import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { apiError } from '../api-error.ts';
import { firstScreenPicker, inlineStyleSources, linkContext, openingScreenPicker, workflowChoice } from './first-screen-file.ts';
import { linkScreen, type LinkScreenDeps } from './link-screen.ts';
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
  links: LinkScreenDeps,
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
    const pickFirstScreen = firstScreenPicker(pageDirectory, links.workflows.defaultId);
    const pickOpeningScreen = openingScreenPicker(pageDirectory);
    const firstScreenStyles = inlineStyleSources(pageDirectory);
    for (const url of taskPageRoutes) {
      page.get(url, async (request, reply) => {
        const file = await linkPage(request.query, request.headers['accept-language']);
        if (file) {
          // The answer depends on the language, and on the task's state as stored now (link-screen.ts): no cache may
          // keep it, neither a shared one (one task's screen for another's request) nor the browser's (a first step
          // kept past the task's start). Vary still says what it depends on, for anything that ignores no-store.
          reply.header('vary', 'accept-encoding, accept-language');
          reply.header('cache-control', 'private, no-store');
          allowInlineStyles(config, request, reply, firstScreenStyles);
        }
        return reply.sendFile(file ?? 'index.html');
      });
    }
    /** docs/architecture.md#how-a-link-is-answered: the first step of a task not begun, else the opening screen. */
    async function linkPage(query: unknown, acceptLanguage: string | undefined): Promise<string | undefined> {
      const context = linkContext(query);
      if (context === undefined) return undefined;
      const screen = await linkScreen(links, context, workflowChoice(query));
      return screen.kind === 'first' ? pickFirstScreen(query, acceptLanguage, screen.workflowId) : pickOpeningScreen(acceptLanguage);
    }
    for (const url of options.preview ? previewRoutes : []) {
      page.get(url, (_request, reply) => reply.sendFile('index.html'));
    }
  });
}
