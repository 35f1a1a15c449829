import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { apiError } from '../api-error.ts';
import { resolvePortalOrigins } from '../page/portal-origins.ts';
import { authenticate } from '../session/authenticate.ts';
import { SESSION_TTL_MS, signSessionToken } from '../session/session-token.ts';
import { goBack, submitStep } from '../task-progress/step.service.ts';
import { getTask, listTaskUpdates, openTask, restartTask, startTask } from '../task-progress/task.service.ts';
import type { TaskServiceDeps } from '../task-progress/locked-task.ts';
import {
  type TaskContext,
  sessionRequestSchema,
  sessionResponseSchema,
  backRequestSchema,
  emptyBodySchema,
  stepResultSchema,
  stepSubmissionSchema,
  taskUpdatesResponseSchema,
  stepIdSchema,
  taskViewSchema,
  stepOfferQuerySchema,
  stepOfferResponseSchema,
} from '@partner-task-kit/workflow/contract';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';
import type { RateLimitCheck } from './rate-limits.ts';
import type { OfferService } from '../offers/offer.service.ts';

export interface TaskRouteDeps {
  config: Config;
  clock: Clock;
  sessionSecret: string;
  service: TaskServiceDeps;
  limits: { perAddress: RateLimitCheck; perTask: RateLimitCheck };
  offers: OfferService;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The task context the session token names; set by the session routes' onRequest hook. */
    taskContext: TaskContext | null;
  }
}

/**
 * Thin edges (docs/architecture.md#thin-edges): the contract's schemas validate the input and type the handler, which calls one service
 * function and returns its result. Limits and the session are checked in onRequest, before the body is even read, so
 * an unauthenticated caller learns nothing about what the routes accept.
 */
export function registerTaskRoutes(app: FastifyInstance, deps: TaskRouteDeps): void {
  const { config, clock, sessionSecret, service, limits, offers } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.decorateRequest('taskContext', null);

  const perAddress = (request: FastifyRequest) => limits.perAddress(request, request.ip);
  const sessionHooks = sessionHooksOf(deps);
  const endEventOf = (request: FastifyRequest) => ({ ...config.endEvent, targetOrigins: resolvePortalOrigins(config, request) });
  const contextOf = (request: FastifyRequest): TaskContext => {
    if (!request.taskContext) throw new Error('session route without its session hook');
    return request.taskContext;
  };

  api.post(
    '/api/session',
    {
      schema: { body: sessionRequestSchema, response: { 200: sessionResponseSchema } },
      config: { inputErrors: { body: 'invalid_context' } },
      onRequest: perAddress,
    },
    async (request) => {
      // Exactly as received: the platform may treat ids case-sensitively, and updates name the task by it (docs/platform.md#the-update-endpoint).
      const { workflow, ...context } = request.body;
      const task = await openTask(
        service,
        context,
        { address: request.ip },
        workflow === undefined ? undefined : offeredWorkflow(deps.service.workflows, workflow),
      );
      const expiresAt = clock.now() + SESSION_TTL_MS;
      return {
        token: await signSessionToken(sessionSecret, context, expiresAt),
        expiresAt: new Date(expiresAt).toISOString(),
        task,
        environment: { emulator: config.emulatorMode },
      };
    },
  );

  api.get('/api/task', { schema: { response: { 200: taskViewSchema } }, onRequest: sessionHooks }, async (request) => {
    const task = await getTask(service, contextOf(request));
    // A partner step may complete the task while the page polls (docs/connecting-your-backend.md#partner-api): the page needs the event then.
    return task.status === 'completed' ? { ...task, endEvent: endEventOf(request) } : task;
  });

  api.post(
    '/api/task/start',
    { schema: { body: emptyBodySchema, response: { 200: taskViewSchema } }, onRequest: sessionHooks },
    (request) => startTask(service, contextOf(request)),
  );

  api.post(
    '/api/task/steps/:stepId',
    {
      schema: { params: z.object({ stepId: stepIdSchema }), body: stepSubmissionSchema, response: { 200: stepResultSchema } },
      config: { inputErrors: { params: 'invalid_step' } },
      onRequest: sessionHooks,
    },
    async (request) => {
      const outcome = await submitStep(service, contextOf(request), request.params.stepId, request.body.data);
      return {
        task: outcome.task,
        ...(outcome.grading ? { grading: outcome.grading } : {}),
        // The page fires the end event only on this answer, i.e. once the completion is stored.
        ...(outcome.completed ? { endEvent: endEventOf(request) } : {}),
      };
    },
  );

  // docs/api.md#get-apitaskstepsstepidoffer: the current step's offer, loaded from the partner's backend and kept (an
  // empty one until its step's wait is over), or the offer an earlier step's answer was chosen from.
  api.get(
    '/api/task/steps/:stepId/offer',
    {
      schema: {
        params: z.object({ stepId: stepIdSchema }),
        querystring: stepOfferQuerySchema,
        response: { 200: stepOfferResponseSchema },
      },
      config: { inputErrors: { params: 'invalid_step', querystring: 'bad_request' } },
      onRequest: sessionHooks,
    },
    (request) => offers.offerFor(contextOf(request), request.params.stepId, { locale: request.query.locale }),
  );

  api.post(
    '/api/task/back',
    { schema: { body: backRequestSchema, response: { 200: taskViewSchema } }, onRequest: sessionHooks },
    (request) => goBack(service, contextOf(request), request.body.from),
  );

  api.post(
    '/api/task/restart',
    { schema: { body: emptyBodySchema, response: { 200: taskViewSchema } }, onRequest: sessionHooks },
    (request) => restartTask(service, contextOf(request)),
  );

  // The preview polls it while updates are pending.
  const updatesRoute = { schema: { response: { 200: taskUpdatesResponseSchema } }, onRequest: sessionHooks, config: { routine: true } };
  api.get('/api/task/updates', updatesRoute, async (request) => ({
    updates: await listTaskUpdates(service, contextOf(request), { withErrors: config.previewEnabled }),
  }));
}

/**
 * Every session route: limited per address, authenticated, then limited per session. Keyed by the session, not the
 * task id: anyone may open a session for any task id (the context is not signed, docs/platform.md#partner-task-configuration), so a limit per task id
 * would let a stranger drain the worker's.
 */
export function sessionHooksOf(deps: Pick<TaskRouteDeps, 'clock' | 'sessionSecret' | 'limits'>) {
  const { clock, sessionSecret, limits } = deps;
  return [
    (request: FastifyRequest) => limits.perAddress(request, request.ip),
    async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await authenticate(request, reply, sessionSecret, clock);
      request.taskContext = session.context;
      await limits.perTask(request, session.sessionKey);
    },
  ];
}

/**
 * The link's `workflow` variable, checked like the rest of the request, before anything is stored: an id this server
 * does not offer is refused even for a task that exists (which would ignore it), because it is a broken link and its
 * owner should hear of it; the page names the problem and whom to tell.
 */
function offeredWorkflow(workflows: WorkflowCatalog, id: string): string {
  if (workflows.find(id)) return id;
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  const offered = workflows
    .list()
    .map((workflow) => workflow.id)
    .join(', ');
  throw apiError(
    'unknown_workflow',
    `This task link names the workflow "${shown}", which this partner does not offer (it offers: ${offered}). Tell whoever set up the task's link.`,
    'workflow',
  );
}
