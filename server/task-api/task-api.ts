import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Store } from '../store/store';
import { registerPageRoutes } from '../page/page-routes';
import { registerPreviewRoutes } from './preview-routes';
import { createRateLimits, defaultRateLimits, type RateLimitSettings } from './rate-limits';
import { setSecurityHeaders } from '../page/security-headers';
import { registerTaskRoutes } from './task-routes';

export interface TaskRoutesOptions {
  config: Config;
  clock: Clock;
  store: Store;
  /** HMAC key of session tokens; undefined makes a random one (emulator mode: sessions end with the process). */
  sessionSecret: string | undefined;
  /** Wakes the outbox relay after a request wrote an update. */
  onUpdateEnqueued: () => void;
  /** Default: `defaultRateLimits`; false turns limits off (a test sending thousands of requests). */
  rateLimits?: RateLimitSettings | false;
  /** Where the built page is; default dist/ at the project root. False serves no page. */
  pageDirectory?: string | false;
}

const DEFAULT_PAGE_DIRECTORY = fileURLToPath(new URL('../../dist', import.meta.url));

/** Smaller than the app-wide limit: a step's data is a few answers or a typed name (issue 4 item 8). */
const API_BODY_LIMIT = 16 * 1024;

/**
 * The page side of the product: the task API of DESIGN.md, the built page, and their security headers. Registered
 * without fastify-plugin on purpose: its hooks (headers, limits) stay inside, away from the emulator's routes.
 */
export async function taskRoutes(app: FastifyInstance, options: TaskRoutesOptions): Promise<void> {
  const { config, clock, store, onUpdateEnqueued } = options;
  const sessionSecret = options.sessionSecret ?? randomBytes(32).toString('base64url');

  app.addHook('onRequest', async (request, reply) => setSecurityHeaders(config, request, reply));
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/')) route.bodyLimit = API_BODY_LIMIT;
  });
  const limits = await createRateLimits(app, options.rateLimits ?? defaultRateLimits);
  registerTaskRoutes(app, {
    config,
    clock,
    sessionSecret,
    limits,
    service: { store, clock, partnerUrlTemplate: config.partnerUrlTemplate, onUpdateEnqueued },
  });

  if (config.previewEnabled) registerPreviewRoutes(app, { config, perAddress: limits.perAddress });

  const pageDirectory = options.pageDirectory ?? DEFAULT_PAGE_DIRECTORY;
  if (pageDirectory !== false) await registerPageRoutes(app, pageDirectory, { preview: config.previewEnabled });
}
