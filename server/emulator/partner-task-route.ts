import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { contextUuidSchema, partnerTaskUpdateSchema, taskStatuses } from '../../src/contract/partner-task-update';
import type { ReceivedUpdate } from './assignment-types';
import { invalidBodyError } from './body-issues';
import { EmulatorError } from './emulator-error';
import type { EmulatorState } from './emulator-state';
import { methodNotAllowed, requireBearer, requireMediaType } from './http-auth';
import type { UpstreamRecorder } from './upstream-hooks';
import { ALL_METHODS } from './upstream-methods';

export const PARTNER_TASK_PATH = '/api/servicetodo/processes/partnerTasks/:assignedTaskUuid';

/** spec 3 names `viewed` as a status that can be received; 2.6 does not list it, so it is accepted only on request. */
const updateWithViewedSchema = partnerTaskUpdateSchema.extend({ taskStatus: z.enum([...taskStatuses, 'viewed']) });

/** The emulator's success body. spec 4.3 shows none, so clients must not depend on it. */
export interface PartnerTaskAnswer {
  assignedTaskUuid: string;
  applied: boolean;
  outcome: 'applied' | 'obsolete' | 'duplicate';
  taskStatus: string;
}

/** spec 4.3: update a partner task with a spec 2.6 record, applying the rules of spec 3. */
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
      requireBearer(state, request.headers, false);
      const uuid = request.params.assignedTaskUuid;
      if (!contextUuidSchema.safeParse(uuid).success) {
        throw new EmulatorError(400, 'invalid_path', 'assignedTaskUuid in the path must be a UUID, the value of wxAssignedTaskUuid (spec 4.3)', {
          field: 'assignedTaskUuid',
        });
      }
      requireMediaType(request.headers['content-type'], 'application/json', 'spec 4.3');
      if (!parsed.ok) throw new EmulatorError(400, 'malformed_json', parsed.reason);
      const schema = state.settings.acceptViewed ? updateWithViewedSchema : partnerTaskUpdateSchema;
      const result = schema.safeParse(parsed.value);
      if (!result.success) throw invalidBodyError(result.error, parsed.value);
      const record: ReceivedUpdate = result.data;

      const now = state.clock.now();
      const known = state.assignments.get(uuid);
      if (known === undefined && state.settings.unknownTasks === 'reject') {
        throw new EmulatorError(404, 'task_not_found', `no partner task is assigned with uuid ${uuid} (spec 4.3 rule 1)`);
      }
      const task = known ?? state.assignments.getOrCreate(uuid, now);
      const outcome = task.applyPartnerUpdate(record, now);
      return { assignedTaskUuid: task.context.assignedTaskUuid, applied: outcome === 'applied', outcome, taskStatus: task.status };
    },
  });
}

type JsonResult = { ok: true; value: unknown } | { ok: false; reason: string };

function parseJson(raw: string | undefined): JsonResult {
  if (raw === undefined || raw.trim() === '') return { ok: false, reason: 'the body is empty; send the record of spec 2.6 as a JSON object' };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    // The parser's message can quote the body; the answer names no values, only the problem.
    return { ok: false, reason: 'the body is not valid JSON; send the record of spec 2.6 as a JSON object' };
  }
}
