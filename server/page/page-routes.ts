import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/error-handling';
import { registerCompressedAssets } from './compressed-assets';

/** Client-side routes that answer with the page itself (src/main.tsx): the task page and, when enabled, the preview. */
const taskPageRoutes = ['/'];
const previewRoutes = ['/preview', '/preview/*'];

/**
 * Serves the built page (`npm run build` writes dist/). Without a build the routes answer 503 with what to do, so an
 * API-only test or a fresh checkout still starts.
 */
export async function registerPageRoutes(app: FastifyInstance, pageDirectory: string, options: { preview: boolean }): Promise<void> {
  const pageRoutes = options.preview ? [...taskPageRoutes, ...previewRoutes] : taskPageRoutes;
  if (!existsSync(join(pageDirectory, 'index.html'))) {
    for (const url of pageRoutes) {
      app.get(url, async () => {
        throw new HttpError(503, 'page_not_built', 'The task page is not built: run "npm run build", then restart the server.');
      });
    }
    return;
  }
  // index: false and no directory listing: only files that exist are served; unknown paths fall to the JSON 404.
  // cacheControl off: security-headers.ts decides (hashed assets immutable, the page revalidated).
  await app.register(fastifyStatic, { root: pageDirectory, index: false, wildcard: true, list: false, dotfiles: 'deny', cacheControl: false });
  registerCompressedAssets(app, pageDirectory);
  for (const url of pageRoutes) {
    app.get(url, (_request, reply) => reply.sendFile('index.html'));
  }
}
