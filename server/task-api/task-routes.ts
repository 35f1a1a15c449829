import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { normalizeTaskContext, type TaskContext } from '../../src/contract/task-context';
import { sessionRequestSchema, type SessionResponse } from '../../src/contract/session';
import { emptyBodySchema, stepSubmissionSchema, type StepResult } from '../../src/contract/step-submission';
import type { TaskUpdatesResponse } from '../../src/contract/task-updates';
import { stepIdSchema, type TaskView } from '../../src/contract/task-view';
import { parseInput } from './parse-input';
import { resolvePortalOrigins } from '../page/portal-origins';
import type { RateLimitCheck } from './rate-limits';
import { authenticate } from '../session/authenticate';
import { SESSION_TTL_MS, signSessionToken } from '../session/session-token';
import { submitStep } from '../task-progress/step.service';
import { getTask, listTaskUpdates, openTask, restartTask, startTask } from '../task-progress/task.service';
import type { TaskServiceDeps } from '../task-progress/locked-task';

export interface TaskRouteDeps {
  config: Config;
  clock: Clock;
  sessionSecret: string;
  service: TaskServiceDeps;
  limits: { perAddress: RateLimitCheck; perTask: RateLimitCheck };
}

/** Thin edges (STYLE habit 2): validate with the contract schemas, call one service function, return its result. */
export function registerTaskRoutes(app: FastifyInstance, deps: TaskRouteDeps): void {
  const { config, clock, sessionSecret, service, limits } = deps;

  /** Every session route: limited per address, authenticated, then limited per assigned task. */
  async function session(request: FastifyRequest, reply: FastifyReply): Promise<TaskContext> {
    await limits.perAddress(request, reply, request.ip);
    const context = authenticate(request, reply, sessionSecret, clock);
    await limits.perTask(request, reply, context.wxAssignedTaskUuid);
    return context;
  }

  app.post('/api/session', async (request, reply): Promise<SessionResponse> => {
    await limits.perAddress(request, reply, request.ip);
    const context = normalizeTaskContext(parseInput(sessionRequestSchema, request.body, 'invalid_context'));
    await limits.perTask(request, reply, context.wxAssignedTaskUuid);
    const task = await openTask(service, context);
    const expiresAt = clock.now() + SESSION_TTL_MS;
    return {
      token: signSessionToken(sessionSecret, context, expiresAt),
      expiresAt: new Date(expiresAt).toISOString(),
      task,
      environment: { emulator: config.emulatorMode },
    };
  });

  app.get('/api/task', async (request, reply): Promise<TaskView> => getTask(service, await session(request, reply)));

  app.post('/api/task/start', async (request, reply): Promise<TaskView> => {
    const context = await session(request, reply);
    parseInput(emptyBodySchema, request.body, 'invalid_body');
    return startTask(service, context);
  });

  app.post('/api/task/steps/:stepId', async (request, reply): Promise<StepResult> => {
    const context = await session(request, reply);
    const { stepId } = parseInput(z.object({ stepId: stepIdSchema }), request.params, 'invalid_step', 'stepId');
    const { data } = parseInput(stepSubmissionSchema, request.body, 'invalid_body');
    const outcome = await submitStep(service, context, stepId, data);
    return {
      task: outcome.task,
      ...(outcome.grading ? { grading: outcome.grading } : {}),
      // Issue 4 item 7: the page fires the end event only on this answer, i.e. after the completion is stored.
      ...(outcome.completed
        ? { endEvent: { ...config.endEvent, targetOrigins: resolvePortalOrigins(config, request) } }
        : {}),
    };
  });

  app.post('/api/task/restart', async (request, reply): Promise<TaskView> => {
    const context = await session(request, reply);
    parseInput(emptyBodySchema, request.body, 'invalid_body');
    return restartTask(service, context);
  });

  app.get('/api/task/updates', async (request, reply): Promise<TaskUpdatesResponse> => ({
    updates: await listTaskUpdates(service, await session(request, reply), { withErrors: config.previewEnabled }),
  }));
}
