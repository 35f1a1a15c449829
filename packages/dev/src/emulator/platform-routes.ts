import type { HTTPMethods, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { contextUuidSchema, partnerTaskUpdateSchema } from '@partner-task-kit/workflow/contract';
import { taskStatuses } from '@partner-task-kit/workflow/contract';
import { EmulatorError, invalidBodyError } from './emulator-errors.ts';
import type { TokenShape } from './emulator-options.ts';
import type { EmulatorState } from './emulator-state.ts';
import { methodNotAllowed, parseBasic, requireMediaType, requireBearer } from './http-auth.ts';
import { parseSentAt, type ReceivedUpdate } from './task-rules.ts';
import type { IssuedToken } from './token-store.ts';
import type { UpstreamRecorder } from './upstream-hooks.ts';

/** The three endpoints of the platform the partner calls (docs/platform.md#token token, 4.2 workers, 4.3 partner task), as strict as the spec. */

/**
 * Each upstream path answers every common method, so a wrong one gets a 405 naming the right one instead of a 404
 * that would hide the mistake.
 */
const ALL_METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const TOKEN_PATH = '/api/servicesecurity/processes/apikey/oauth/token';

/** docs/platform.md#token: the exact query the token endpoint expects. Extra parameters are tolerated, these two are checked. */
const requiredQuery = { grant_type: 'client_credentials', scopes: 'employer' } as const;

/** docs/platform.md#token: obtain a token with the client-credentials flow. Each part of the request is checked as the spec shows it. */
export function registerTokenRoute(app: FastifyInstance, state: EmulatorState, recorder: UpstreamRecorder): void {
  app.route({
    method: ALL_METHODS,
    url: TOKEN_PATH,
    ...recorder.hooksFor('token'),
    handler: async (request, reply) => {
      // docs/platform.md#token: "Request body: none shown". An empty body is expected; a form body is tolerated and only logged.
      recorder.recordBody(request, typeof request.body === 'string' ? request.body : undefined);
      if (request.method !== 'POST') throw methodNotAllowed(request.method, 'POST');
      const query = request.query as Record<string, unknown>;
      for (const [name, expected] of Object.entries(requiredQuery)) {
        if (query[name] !== expected) {
          const problem = query[name] === undefined ? 'is missing' : 'has the wrong value';
          throw new EmulatorError(400, 'invalid_query', `query parameter ${name} ${problem}; expected ${name}=${expected} (spec 4.1)`, {
            field: name,
          });
        }
      }
      requireMediaType(request.headers['content-type'], 'application/x-www-form-urlencoded', 'spec 4.1');
      const credential = basicCredential(request);
      const accepted = state.credentials.authenticate(credential.key, credential.secret);
      if (accepted === undefined) {
        throw new EmulatorError(401, 'invalid_credentials', 'the API key and secret are not valid (spec 5)', {
          headers: { 'www-authenticate': 'Basic realm="workforce"' },
        });
      }
      const issued = state.tokens.issue(accepted);
      // RFC 6749 5.1: token responses must not be cached.
      void reply.header('cache-control', 'no-store');
      return tokenBody(state.settings.tokenShape, issued, state.tokens.lifetimeSeconds);
    },
  });
}

function basicCredential(request: FastifyRequest): { key: string; secret: string } {
  const credential = parseBasic(request.headers.authorization);
  if (credential !== undefined) return credential;
  throw new EmulatorError(
    401,
    'missing_credentials',
    'HTTP Basic credentials are required: the API key as user name, the secret as password (spec 4.1)',
    {
      headers: { 'www-authenticate': 'Basic realm="workforce"' },
    },
  );
}

/**
 * docs/platform.md#token: the response's field names and shape are not shown. 'oauth' is the OAuth 2.0 standard (RFC 6749 5.1); the
 * other shapes exist so the client's tolerance can be tested (docs/decisions/007-unknowns-stay-configurable.md).
 */
function tokenBody(shape: TokenShape, issued: IssuedToken, lifetimeSeconds: number): Record<string, unknown> {
  switch (shape) {
    case 'oauth':
      return { access_token: issued.token, token_type: 'Bearer', expires_in: lifetimeSeconds, scope: 'employer' };
    case 'camelCase':
      return { accessToken: issued.token, expiresIn: lifetimeSeconds, tokenType: 'Bearer' };
    case 'noExpiry':
      return { access_token: issued.token };
    case 'unrecognized':
      return { jwt: issued.token, ttl: lifetimeSeconds };
  }
}

const WORKERS_PATH = '/api/serviceworkforce/workers';

/** docs/platform.md#workers: the worker record's fields are not shown; this shape is the emulator's guess, and clients pass it through. */
interface EmulatedWorker {
  uuid: string;
  firstName: string;
  lastName: string;
  email: string;
  companyUuid: string;
  assignedTaskUuids: string[];
}

/** Fixed demo workers, present in every emulator (immutable data, not shared state). */
const seededWorkers: readonly EmulatedWorker[] = [
  {
    uuid: '0b7e6f1c-2d3a-4c5b-8e9f-101112131415',
    firstName: 'Ada',
    lastName: 'Example',
    email: 'ada@example.com',
    companyUuid: '5f1d2c3b-4a59-4687-9a8b-c7d6e5f40312',
    assignedTaskUuids: [],
  },
  {
    uuid: '1c8f7a2d-3e4b-4d6c-9fa0-212223242526',
    firstName: 'Grace',
    lastName: 'Example',
    email: 'grace@example.com',
    companyUuid: '5f1d2c3b-4a59-4687-9a8b-c7d6e5f40312',
    assignedTaskUuids: [],
  },
];

/**
 * docs/platform.md#workers: list workers. The method, query parameters and response shape are not shown: GET (the example is a plain
 * request without body), any query accepted and echoed back under `query`, workers under `data`.
 */
export function registerWorkersRoute(app: FastifyInstance, state: EmulatorState, recorder: UpstreamRecorder): void {
  app.route({
    method: ALL_METHODS,
    url: WORKERS_PATH,
    ...recorder.hooksFor('workers'),
    handler: async (request) => {
      if (request.method !== 'GET') throw methodNotAllowed(request.method, 'GET');
      // docs/platform.md#workers: the workers example names the header `Application`, so it is accepted beside Authorization.
      const issued = requireBearer(state, request.headers, true);
      return { data: listWorkers(state, issued.companyUuid), query: request.query };
    },
  });
}

/**
 * The seeded workers, then one per worker of the assignments made through the control API, oldest first. A
 * company-bound credential sees only its company's workers: docs/platform.md#the-service, a client reads its own workforce data.
 */
function listWorkers(state: EmulatorState, companyUuid: string | undefined): EmulatedWorker[] {
  const byUuid = new Map<string, EmulatedWorker>(seededWorkers.map((w) => [w.uuid, { ...w, assignedTaskUuids: [] }]));
  // Tasks created on the fly by a partner update have invented workers, so they are left out.
  for (const task of state.assignments.list().reverse()) {
    if (task.origin !== 'control') continue;
    const { workerUuid, companyUuid, assignedTaskUuid } = task.context;
    let worker = byUuid.get(workerUuid);
    if (worker === undefined) {
      const short = workerUuid.slice(0, 8);
      worker = {
        uuid: workerUuid,
        firstName: 'Worker',
        lastName: short,
        email: `worker-${short}@example.com`,
        companyUuid,
        assignedTaskUuids: [],
      };
      byUuid.set(workerUuid, worker);
    }
    worker.assignedTaskUuids.push(assignedTaskUuid);
  }
  const workers = [...byUuid.values()];
  return companyUuid === undefined ? workers : workers.filter((worker) => worker.companyUuid === companyUuid);
}

const PARTNER_TASK_PATH = '/api/servicetodo/processes/partnerTasks/:assignedTaskUuid';

/** The record as the platform reads it: sentAt in any ISO 8601 form (our own server always sends one form). */
const receivedUpdateSchema = partnerTaskUpdateSchema.extend({
  sentAt: z.string().refine((value) => parseSentAt(value) !== undefined, 'must be an ISO 8601 date-time'),
});

/** docs/platform.md#statuses-and-transitions names `viewed` as a status that can be received; 2.6 does not list it, so it is accepted only on request. */
const updateWithViewedSchema = receivedUpdateSchema.extend({ taskStatus: z.enum([...taskStatuses, 'viewed']) });

/** The emulator's success body. docs/platform.md#the-update-endpoint shows none, so clients must not depend on it. */
interface PartnerTaskAnswer {
  assignedTaskUuid: string;
  applied: boolean;
  outcome: 'applied' | 'obsolete' | 'duplicate';
  taskStatus: string;
}

/** docs/platform.md#the-update-endpoint: update a partner task with a docs/platform.md#partner-task-update-record record, applying the rules of docs/platform.md#statuses-and-transitions. */
export function registerPartnerTaskRoute(app: FastifyInstance, state: EmulatorState, recorder: UpstreamRecorder): void {
  app.route<{ Params: { assignedTaskUuid: string } }>({
    method: ALL_METHODS,
    url: PARTNER_TASK_PATH,
    ...recorder.hooksFor('partnerTask'),
    handler: async (request): Promise<PartnerTaskAnswer> => {
      const raw = typeof request.body === 'string' ? request.body : undefined;
      const parsed = parseJson(raw);
      recorder.recordBody(request, raw, parsed.ok ? parsed.value : undefined);
      if (request.method !== 'POST') throw methodNotAllowed(request.method, 'POST');
      const issued = requireBearer(state, request.headers, false);
      if (!state.settings.partnerTaskPermission) {
        // docs/platform.md#authentication: a key's role decides what it may do; this rehearses a role without the partner-task permission.
        throw new EmulatorError(403, 'permission_denied', "the integration's role lacks the permission to update partner tasks (spec 5)");
      }
      const uuid = request.params.assignedTaskUuid;
      if (!contextUuidSchema.safeParse(uuid).success) {
        throw new EmulatorError(
          400,
          'invalid_path',
          'assignedTaskUuid in the path must be a UUID, the value of wxAssignedTaskUuid (spec 4.3)',
          {
            field: 'assignedTaskUuid',
          },
        );
      }
      requireMediaType(request.headers['content-type'], 'application/json', 'spec 4.3');
      if (!parsed.ok) throw new EmulatorError(400, 'malformed_json', parsed.reason);
      const schema = state.settings.acceptViewed ? updateWithViewedSchema : receivedUpdateSchema;
      const result = schema.safeParse(parsed.value);
      if (!result.success) throw invalidBodyError(result.error, parsed.value);
      const record: ReceivedUpdate = result.data;

      const now = state.clock.now();
      const known = state.assignments.get(uuid);
      // A company-bound token does not see another company's task: the same 404 as for a task that does not exist,
      // so the answer reveals nothing about other clients (docs/platform.md#authentication: keys belong to one client's integration).
      const hidden = known !== undefined && issued.companyUuid !== undefined && known.context.companyUuid !== issued.companyUuid;
      if (hidden || (known === undefined && state.settings.unknownTasks === 'reject')) {
        throw new EmulatorError(404, 'task_not_found', `no partner task is assigned with uuid ${uuid} (spec 4.3 rule 1)`);
      }
      // A task created on the fly belongs to the company of the credential that created it, when it has one.
      const task = known ?? state.assignments.getOrCreate(uuid, now, issued.companyUuid);
      const outcome = task.applyPartnerUpdate(record, now);
      return { assignedTaskUuid: task.context.assignedTaskUuid, applied: outcome === 'applied', outcome, taskStatus: task.status };
    },
  });
}

type JsonResult = { ok: true; value: unknown } | { ok: false; reason: string };

function parseJson(raw: string | undefined): JsonResult {
  if (raw === undefined || raw.trim() === '')
    return { ok: false, reason: 'the body is empty; send the record of spec 2.6 as a JSON object' };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    // The parser's message can quote the body; the answer names no values, only the problem.
    return { ok: false, reason: 'the body is not valid JSON; send the record of spec 2.6 as a JSON object' };
  }
}
