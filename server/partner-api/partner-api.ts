import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { canonicalUuid } from '../../src/contract/task-context';
import type { Clock } from '../clock';
import { apiError } from '../api-error';
import type { Store } from '../store/store';
import type { TaskServiceDeps } from '../task-progress/locked-task';
import { resolvePartnerStep, type ResolvePartnerStep } from '../task-progress/partner-steps';
import type { RateLimitCheck } from '../task-api/rate-limits';
import { cursorSeal } from './changes-cursor';
import { createFeedWatch } from './feed-watch';
import { idempotentAnswers } from './idempotent-answer';
import { companiesOf, partnerAuthentication } from './partner-auth';
import {
  changesQuerySchema,
  partnerStepBodySchema,
  partnerStepParamsSchema,
  partnerStepResultSchema,
  partnerTaskParamsSchema,
  partnerTaskSchema,
  taskChangesSchema,
} from './partner-schemas';
import { getPartnerTask, listPartnerTaskChanges } from './partner-tasks.service';

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
  /** Tests may put another engine in; by default the one of server/task-progress/partner-steps.ts. */
  resolveStep?: ResolvePartnerStep;
}

/** `?reveal=sensitive`: the task's sensitive values in clear, for a key that may see them. */
const partnerTaskQuerySchema = z.object({ reveal: z.optional(z.enum(['sensitive'])) });

/** An Idempotency-Key is a client's own token: printable ASCII, as the IETF draft on the header describes it. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The partner API (`/api/partner/v1/`), server to server, keyed by `npm run partner-keys`: a task, the changes feed,
 * and resolving a step that awaits the partner. Registered inside the task API so the OpenAPI document lists it and
 * its answers keep the error shape of docs/api.md#errors.
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
      return getPartnerTask(store, {
        assignedTaskUuid: request.params.assignedTaskUuid,
        companies: companiesOf(key),
        ...(reveal ? { reveal } : {}),
      });
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
          const outcome = await resolveStep(service, { assignedTaskUuid, stepId, data: request.body.data, companies: companiesOf(key) });
          return { task: outcome.task };
        },
      );
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      // A stored refusal is replayed with its own status and body, which the 200 schema does not describe.
      return (reply as FastifyReply).status(answer.status).send(answer.body);
    },
  );
}
