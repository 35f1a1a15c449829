import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { canonicalUuid } from '@partner-task-kit/workflow/contract';
import type { Clock } from '../clock.ts';
import { apiError } from '../api-error.ts';
import type { Store } from '../store/store.ts';
import type { TaskServiceDeps } from '../task-progress/locked-task.ts';
import { describeViewFiles } from '../task-progress/file-descriptions.ts';
import { resolvePartnerStep, type ResolvePartnerStep } from '../task-progress/partner-steps.ts';
import type { RateLimitCheck } from '../task-api/rate-limits.ts';
import type { UploadFiles } from '../uploads/upload-files.ts';
import { cursorSeal } from './changes-cursor.ts';
import { createFeedWatch } from './feed-watch.ts';
import { idempotentAnswers } from './idempotent-answer.ts';
import { openPartnerUpload } from './partner-uploads.service.ts';
import { companiesOf, partnerAuthentication } from './partner-auth.ts';
import {
  changesQuerySchema,
  partnerStepBodySchema,
  partnerStepParamsSchema,
  partnerStepResultSchema,
  partnerTaskParamsSchema,
  partnerTaskSchema,
  partnerUploadParamsSchema,
  partnerUploadResponses,
  taskChangesSchema,
} from './partner-schemas.ts';
import { getPartnerTask, listPartnerTaskChanges } from './partner-tasks.service.ts';

export interface PartnerApiOptions {
  store: Store;
  clock: Clock;
  /** What the step route hands the engine (the task services' own dependencies). */
  service: TaskServiceDeps;
  /** Per client address before the key is checked (guessing keys costs requests), then per key. */
  limits: { perAddress: RateLimitCheck; perKey: RateLimitCheck };
  /** Seals the changes feed's cursors (changes-cursor.ts): the same secret on every instance. */
  cursorSecret: string;
  /** Where the changes feed's hold on Postgres is reported (feed-watch.ts); none in tests that need no metrics. */
  metrics?: Registry | undefined;
  /** Tests may put another engine in; by default the one of packages/server/src/task-progress/partner-steps.ts. */
  resolveStep?: ResolvePartnerStep;
  /** Where uploads' bytes are kept (packages/server/src/uploads/upload-store.ts): the files route streams them. */
  files: UploadFiles;
}

/** `?reveal=sensitive`: the task's sensitive values in clear, for a key that may see them. */
const partnerTaskQuerySchema = z.object({ reveal: z.optional(z.enum(['sensitive'])) });

/** An Idempotency-Key is a client's own token: printable ASCII, as the IETF draft on the header describes it. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The partner API (`/api/partner/v1/`), server to server, keyed by `npm run partner-keys`: a task, the changes feed,
 * a task's uploaded files, and resolving a step that awaits the partner. Registered inside the task API so the
 * OpenAPI document lists it and its answers keep the error shape of docs/api.md#errors.
 */
export async function partnerApi(app: FastifyInstance, options: PartnerApiOptions): Promise<void> {
  const { store, clock, service, limits } = options;
  const resolveStep = options.resolveStep ?? resolvePartnerStep;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const authenticate = partnerAuthentication({ db: store.db, clock });
  const answerOnce = idempotentAnswers({ db: store.db });
  const cursors = cursorSeal(options.cursorSecret);
  const watch = createFeedWatch({ store, clock, log: app.log, metrics: options.metrics });
  app.decorateRequest('partnerKey', null);
  // The response schemas are zod (and a download's is a file): they type the handlers and fill the OpenAPI document,
  // and fast-json-stringify cannot compile them. This scope serializes as buildApp does, whatever app it is in.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // Before the body is read, as on the task API: an unauthenticated caller learns nothing of what a route accepts.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    await limits.perAddress(request, `partner:${request.ip}`);
    request.partnerKey = await authenticate(request, reply);
    await limits.perKey(request, `partner-key:${request.partnerKey.id}`);
  });
  const keyOf = (request: FastifyRequest) => {
    if (!request.partnerKey) throw new Error('partner route without its authentication hook');
    return request.partnerKey;
  };
  const security = [{ partnerKey: [] }];

  api.get(
    '/api/partner/v1/tasks',
    {
      schema: { querystring: changesQuerySchema, response: { 200: taskChangesSchema }, security },
      config: { inputErrors: { querystring: 'bad_request' } },
    },
    (request) =>
      listPartnerTaskChanges(store, {
        updatedAfter: request.query.updatedAfter,
        limit: request.query.limit,
        companyUuid: keyOf(request).companyUuid ?? undefined,
        cursors,
        watch,
      }),
  );

  api.get(
    '/api/partner/v1/tasks/:assignedTaskUuid',
    {
      schema: { params: partnerTaskParamsSchema, querystring: partnerTaskQuerySchema, response: { 200: partnerTaskSchema }, security },
      config: { inputErrors: { querystring: 'bad_request' } },
    },
    (request) => {
      const key = keyOf(request);
      const asked = request.query.reveal === 'sensitive';
      // docs/connecting-your-backend.md#sensitive-values: only a key made with --reveal-sensitive sees clear values.
      if (asked && !key.revealSensitive) {
        throw apiError(
          'reveal_not_allowed',
          `Key ${key.name} may not reveal sensitive values: create one with --reveal-sensitive.`,
          'reveal',
        );
      }
      const reveal = asked ? { by: key.name, keys: service.sensitiveKeys, now: clock.now() } : undefined;
      return getPartnerTask(store, service.workflows, {
        assignedTaskUuid: request.params.assignedTaskUuid,
        companies: companiesOf(key),
        ...(reveal ? { reveal } : {}),
      });
    },
  );

  api.get(
    '/api/partner/v1/tasks/:assignedTaskUuid/uploads/:uploadId',
    { schema: { params: partnerUploadParamsSchema, response: partnerUploadResponses, security } },
    async (request, reply) => {
      const key = keyOf(request);
      const upload = await openPartnerUpload(store, service.workflows, options.files, {
        ...request.params,
        key,
        companies: companiesOf(key),
        now: clock.now(),
      });
      // docs/connecting-your-backend.md#files: the checked type, as a download never shown in place, of a name we
      // made, never sniffed by a browser into something else, never kept by a cache (it is personal data); its
      // sha256 as RFC 9530's Repr-Digest, to check what arrived. Bytes, not the JSON the type provider infers from
      // the response schemas (they are there for the OpenAPI document).
      const answer = (reply as FastifyReply)
        .type(upload.file.contentType)
        .header('content-length', String(upload.file.bytes))
        .header('content-disposition', `attachment; filename="${upload.filename}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .header('repr-digest', `sha-256=:${Buffer.from(upload.file.sha256, 'hex').toString('base64')}:`);
      // A HEAD gets these headers; Fastify drains the stream without sending it.
      return answer.send(upload.bytes);
    },
  );

  api.post(
    '/api/partner/v1/tasks/:assignedTaskUuid/steps/:stepId',
    {
      schema: { params: partnerStepParamsSchema, body: partnerStepBodySchema, response: { 200: partnerStepResultSchema }, security },
    },
    async (request, reply) => {
      const key = keyOf(request);
      const idempotencyKey = request.headers['idempotency-key'];
      if (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        throw apiError(
          'missing_idempotency_key',
          'Send an Idempotency-Key header (1 to 255 printable ASCII characters), new for each new request.',
          'Idempotency-Key',
        );
      }
      const { assignedTaskUuid, stepId } = request.params;
      const taskKey = canonicalUuid(assignedTaskUuid);
      const answer = await answerOnce(
        {
          partnerKeyId: key.id,
          idempotencyKey,
          taskKey,
          request: { method: 'POST', task: taskKey, stepId, body: request.body },
          now: clock.now(),
        },
        async () => {
          const { data, workerMessage } = request.body;
          const outcome = await resolveStep(service, { assignedTaskUuid, stepId, data, workerMessage, companies: companiesOf(key) });
          return { task: await describeViewFiles(store.db, service.workflows, outcome.task) };
        },
      );
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      // A stored refusal is replayed with its own status and body, which the 200 schema does not describe.
      return (reply as FastifyReply).status(answer.status).send(answer.body);
    },
  );
}
