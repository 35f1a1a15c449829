import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { registerPageRoutes } from '../page/page-routes.ts';
import { partnerApi } from '../partner-api/partner-api.ts';
import { setSecurityHeaders } from '../page/security-headers.ts';
import { sensitiveKeyRingOf, type SensitiveKeyRing } from '../sensitive/sensitive-keys.ts';
import type { Store } from '../store/store.ts';
import type { CompanyGate } from '../tenants/company-credentials.ts';
import { registerPreviewRoutes } from './preview-routes.ts';
import { createRateLimits, rateLimitsOf, type RateLimitSettings } from './rate-limits.ts';
import { registerTaskRoutes, sessionHooksOf } from './task-routes.ts';
import { registerUploadRoutes, type UploadSettings } from '../uploads/upload-routes.ts';
import type { UploadFiles } from '../uploads/upload-files.ts';
import { uploadFilesOf } from '../uploads/upload-store.ts';
import { claimedUploadRemover } from '../uploads/upload-removal.ts';
import { createOfferService } from '../offers/offer.service.ts';
import type { OfferBackend } from '../offers/offer-loader.ts';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';

export interface TaskApiOptions {
  config: Config;
  clock: Clock;
  store: Store;
  /** Rung after a request committed an update. */
  onUpdateEnqueued: () => void;
  companies: CompanyGate;
  /** The workflows this deployment runs (the app's, handed in). */
  workflows: WorkflowCatalog;
  /** Default SESSION_SECRET, or a random one per start (emulator mode: sessions end with the process). */
  sessionSecret?: string;
  /** Default: the configured limits; false turns limits off (a test sending thousands of requests). */
  rateLimits?: RateLimitSettings | false;
  /** Where the changes feed reports its hold on Postgres (docs/operations.md#metrics). */
  metrics?: Registry;
  /** Default: the ring of the configuration (SENSITIVE_DATA_KEYS, or emulator mode's kept key). */
  sensitiveKeys?: SensitiveKeyRing;
  /** Where the built page is; default dist/ in the working directory (the app's root, where npm runs it). False serves no page. */
  pageDirectory?: string | false;
  /** Emulator mode's stand-in of the partner's backend for offers; by default PARTNER_BACKEND_URL's, else none (424 offer_unavailable). */
  offerBackend?: OfferBackend;
  /** Uploads' limits (docs/configuration.md#uploads); tests set their own. */
  uploads?: UploadSettings;
  /** Where uploads' bytes are kept: by default the store the configuration names (upload-store.ts); tests pass their own. */
  uploadFiles?: UploadFiles;
}

/**
 * Smaller than the app-wide limit: a step's data is a few answers or a typed name. The default of this scope's /api/
 * routes: one that names its own `bodyLimit` (an upload, a tighter endpoint) keeps it.
 */
const API_BODY_LIMIT = 16 * 1024;

/** The feed cursors' secret when no SESSION_SECRET is set (emulator mode only: it is required elsewhere). */
const EMULATOR_CURSOR_SECRET = 'emulator mode: a single company, whose cursors hide nothing';

/**
 * The page side of the product: the task API of docs/api.md (documented at /api/openapi.json from the same zod schemas
 * that validate it), the built page, and their security headers. Registered without fastify-plugin on purpose: its
 * hooks (headers, limits) stay inside, away from the emulator's routes.
 */
export async function taskApi(app: FastifyInstance, options: TaskApiOptions): Promise<void> {
  const { config, clock, store, onUpdateEnqueued, companies, workflows } = options;
  const sessionSecret = options.sessionSecret ?? config.sessionSecret ?? randomBytes(32).toString('base64url');

  // docs/api.md#error-codes: a body that is not application/json is 415 unsupported_media_type. Fastify
  // parses text/plain too by default, which would hand a route a string to refuse as 400 invalid_body instead.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request, reply) => setSecurityHeaders(config, request, reply));
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/')) route.bodyLimit ??= API_BODY_LIMIT;
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'partner-task-kit task API', version: '1' },
      components: { securitySchemes: { partnerKey: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const rateLimits = options.rateLimits ?? rateLimitsOf(config);
  const limits = await createRateLimits(app, rateLimits, store);
  const files = options.uploadFiles ?? uploadFilesOf(config);
  // A restart's claimed files go after its commit, in the background; the server waits for them as it closes.
  const claimedFiles = claimedUploadRemover({ store, files, log: app.log });
  app.addHook('onClose', async () => claimedFiles.close());
  const service = {
    store,
    clock,
    partnerUrlTemplate: config.partnerUrlTemplate,
    onUpdateEnqueued,
    companies,
    newTaskLimits: config.newTaskLimits,
    sensitiveKeys: options.sensitiveKeys ?? sensitiveKeyRingOf(config),
    log: app.log,
    workflows,
    onUploadsClaimed: claimedFiles.removeOf,
  };
  const offers = createOfferService({
    ...{ store, clock, workflows, backend: options.offerBackend ?? configuredOfferBackend(config) },
    ...{ timeoutMs: config.offerTimeoutMs, log: app.log },
  });
  app.addHook('onClose', async () => offers.close());
  registerTaskRoutes(app, { config, clock, sessionSecret, limits, service, offers });
  // A scope of their own: tus's content type is parsed nowhere else.
  const sessionHooks = sessionHooksOf({ clock, sessionSecret, limits });
  await app.register(async (scope) =>
    registerUploadRoutes(scope, {
      config,
      clock,
      store,
      workflows,
      settings: {
        maxFilesPerTask: config.uploads.maxFilesPerTask,
        maxBytesPerTask: config.uploads.maxBytesPerTask,
        ...options.uploads,
      },
      files,
      sessionHooks,
    }),
  );
  // A partner key is limited as a session is (RATE_LIMIT_PER_TASK), and its address as any client's.
  const perKey = limits.limiter(rateLimits === false ? 0 : rateLimits.perTask);
  await app.register(partnerApi, {
    store,
    clock,
    service,
    limits: { perAddress: limits.perAddress, perKey },
    // Emulator mode without SESSION_SECRET: one company, nothing to hide, and cursors that outlive a restart.
    cursorSecret: config.sessionSecret ?? options.sessionSecret ?? EMULATOR_CURSOR_SECRET,
    metrics: options.metrics,
    files,
  });
  if (config.previewEnabled) registerPreviewRoutes(app, { config, workflows, perAddress: limits.perAddress });

  const pageDirectory = options.pageDirectory ?? resolve('dist');
  if (pageDirectory !== false)
    await registerPageRoutes(app, pageDirectory, config, { store, companies, workflows, log: app.log, timeoutMs: LINK_STORE_TIMEOUT_MS });
}

/**
 * How long a GET of a link waits on the store to learn how far its task is: a page held on a busy database paints
 * nothing, so past this the opening screen answers, right for any task (docs/architecture.md#how-a-link-is-answered).
 */
const LINK_STORE_TIMEOUT_MS = 300;

function configuredOfferBackend(config: Config): OfferBackend | undefined {
  const backend = config.partnerBackend;
  return backend.kind === 'endpoint' ? { url: backend.url, secrets: () => [backend.secret] } : undefined;
}
