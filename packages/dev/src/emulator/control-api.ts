import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { contextUuidSchema } from '@partner-task-kit/workflow/contract';
import type { AssignedTask } from './assignments.ts';
import { registerCredentialRoutes } from './control-credentials.ts';
import { EmulatorError, parseControl } from './emulator-errors.ts';
import { tokenShapes, unknownTaskModes } from './emulator-options.ts';
import type { EmulatorState } from './emulator-state.ts';
import { faultEndpoints, faultKinds } from './fault-queue.ts';
import { upstreamEndpoints } from './request-log.ts';
import { taskActions } from './task-rules.ts';

/** The emulator's control API: assignments and admin actions, faults, clock and settings, with their schemas. */

const nonBlank = z.string().refine((value) => value.trim() !== '', 'must not be blank');

/** POST /control/assignments: the options of docs/platform.md#partner-task-configuration (title and iframe URL required) and the context of docs/platform.md#task-context. */
const createAssignmentSchema = z
  .object({
    title: nonBlank,
    iframeUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    // docs/platform.md#partner-task-configuration: a duration whose format is not stated, so any text is kept as given.
    estimatedCompletionTime: nonBlank.optional(),
    endEvent: nonBlank.optional(),
    appendTaskContext: z.boolean().default(true),
    hideTaskCompletedButton: z.boolean().default(false),
    requireReview: z.boolean().default(false),
    workerUuid: contextUuidSchema.optional(),
    assignedTaskUuid: contextUuidSchema.optional(),
    taskFlowUuid: contextUuidSchema.optional(),
    companyUuid: contextUuidSchema.optional(),
  })
  .strict();

const actionSchema = z.enum(taskActions);

const faultSchema = z
  .object({
    endpoint: z.enum(faultEndpoints),
    kind: z.enum(faultKinds),
    count: z.int().min(1).max(1_000_000).default(1),
    status: z.int().min(400, 'must be an error status, 400 to 599').max(599, 'must be an error status, 400 to 599').optional(),
    retryAfterSeconds: z.int().min(0).max(86_400).optional(),
    delayMs: z.int().min(0).max(600_000).optional(),
    after: z.boolean().optional(),
    assignedTaskUuid: contextUuidSchema.optional(),
  })
  .strict()
  .superRefine((fault, context) => {
    if (fault.assignedTaskUuid !== undefined && fault.endpoint !== 'partnerTask') {
      context.addIssue({ code: 'custom', path: ['assignedTaskUuid'], message: 'applies only to endpoint partnerTask' });
    }
    const onlyFor = (field: 'status' | 'retryAfterSeconds' | 'delayMs', kind: string) => {
      if (fault[field] !== undefined && fault.kind !== kind) {
        context.addIssue({ code: 'custom', path: [field], message: `applies only to kind ${kind}` });
      }
    };
    onlyFor('status', 'status');
    onlyFor('retryAfterSeconds', 'rateLimit');
    onlyFor('delayMs', 'delay');
    if (fault.after !== undefined && fault.kind !== 'delay' && fault.kind !== 'drop') {
      context.addIssue({ code: 'custom', path: ['after'], message: 'applies only to kinds delay and drop' });
    }
    if (fault.kind === 'delay' && fault.delayMs === undefined) {
      context.addIssue({ code: 'custom', path: ['delayMs'], message: 'is required for kind delay' });
    }
    if (fault.kind === 'expireToken' && fault.endpoint === 'token') {
      context.addIssue({ code: 'custom', path: ['endpoint'], message: 'expireToken needs an endpoint that takes a bearer token' });
    }
  });

/** DELETE /control/faults: all faults, or `?assignedTaskUuid=` only those aimed at that task. */
const clearFaultsQuerySchema = z.object({ assignedTaskUuid: contextUuidSchema.optional() });

const settingsSchema = z
  .object({
    tokenShape: z.enum(tokenShapes).optional(),
    unknownTasks: z.enum(unknownTaskModes).optional(),
    acceptViewed: z.boolean().optional(),
    partnerTaskPermission: z.boolean().optional(),
  })
  .strict();

const advanceClockSchema = z.object({ advanceMs: z.int().min(0, 'must be 0 or more: the clock only moves ahead') }).strict();

const requestsQuerySchema = z.object({
  endpoint: z.enum(upstreamEndpoints).optional(),
  limit: z.coerce.number().int().min(1).max(1_000_000).optional(),
});

/**
 * The control API's assignments: what the platform would hold once a flow with a partner task (docs/platform.md#partner-task-configuration) is assigned
 * to a worker, plus the admin and portal actions of docs/platform.md#statuses-and-transitions.
 */
function registerAssignmentRoutes(app: FastifyInstance, state: EmulatorState): void {
  app.post('/assignments', async (request, reply) => {
    const input = parseControl(createAssignmentSchema, request.body);
    const { workerUuid, assignedTaskUuid, taskFlowUuid, companyUuid, ...options } = input;
    const task = state.assignments.create(
      { context: { workerUuid, assignedTaskUuid, taskFlowUuid, companyUuid }, options },
      'control',
      state.clock.now(),
    );
    if (task === undefined) {
      throw new EmulatorError(409, 'assignment_exists', `an assignment with assignedTaskUuid ${assignedTaskUuid ?? ''} exists`, {
        field: 'assignedTaskUuid',
      });
    }
    return reply.code(201).send(task.view());
  });

  app.get('/assignments', async () => ({ assignments: state.assignments.list().map((task) => task.view()) }));

  app.get<{ Params: { uuid: string } }>('/assignments/:uuid', async (request) => findTask(state, request.params.uuid).view());

  app.post<{ Params: { uuid: string; action: string } }>('/assignments/:uuid/actions/:action', async (request) => {
    const action = parseControl(actionSchema, request.params.action, 'invalid_action');
    const task = findTask(state, request.params.uuid);
    const result = task.applyAction(action, state.clock.now());
    if (!result.ok) throw new EmulatorError(409, 'action_not_allowed', result.reason);
    return task.view();
  });
}

function findTask(state: EmulatorState, uuid: string): AssignedTask {
  const task = state.assignments.get(uuid);
  if (task === undefined) throw new EmulatorError(404, 'assignment_not_found', `no assignment with assignedTaskUuid ${uuid}`);
  return task;
}

/**
 * The control API (mounted under /control): lets tests and the preview portal drive the emulator. It is not part of the
 * platform's interface, so it is neither logged nor subject to injected faults.
 */
export function registerControlRoutes(app: FastifyInstance, state: EmulatorState): void {
  registerAssignmentRoutes(app, state);
  // The API keys the platform accepts, changed at run time (control-credentials.ts).
  registerCredentialRoutes(app, state);

  app.get('/requests', async (request) => {
    const query = parseControl(requestsQuerySchema, request.query, 'invalid_query');
    return { requests: state.requests.list(query.endpoint, query.limit) };
  });
  app.delete('/requests', async () => ({ cleared: state.requests.clear() }));

  app.post('/faults', async (request, reply) => {
    const fault = state.faults.add(parseControl(faultSchema, request.body));
    return reply.code(201).send(fault);
  });
  app.get('/faults', async () => ({ faults: state.faults.list() }));
  app.delete('/faults', async (request) => ({
    cleared: state.faults.clear(parseControl(clearFaultsQuerySchema, request.query, 'invalid_query').assignedTaskUuid),
  }));

  const clockView = () => {
    const epochMs = state.clock.now();
    return { now: new Date(epochMs).toISOString(), epochMs };
  };
  app.get('/clock', async () => clockView());
  app.post('/clock', async (request) => {
    state.clock.advance(parseControl(advanceClockSchema, request.body).advanceMs);
    return clockView();
  });

  app.get('/settings', async () => state.settings);
  app.put('/settings', async (request) => {
    const changes = parseControl(settingsSchema, request.body);
    if (changes.tokenShape !== undefined) state.settings.tokenShape = changes.tokenShape;
    if (changes.unknownTasks !== undefined) state.settings.unknownTasks = changes.unknownTasks;
    if (changes.acceptViewed !== undefined) state.settings.acceptViewed = changes.acceptViewed;
    if (changes.partnerTaskPermission !== undefined) state.settings.partnerTaskPermission = changes.partnerTaskPermission;
    return state.settings;
  });

  app.post('/reset', async () => {
    state.reset();
    return { reset: true };
  });
}
