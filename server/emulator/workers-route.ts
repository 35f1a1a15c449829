import type { FastifyInstance } from 'fastify';
import type { EmulatorState } from './emulator-state';
import { methodNotAllowed, requireBearer } from './http-auth';
import type { UpstreamRecorder } from './upstream-hooks';
import { ALL_METHODS } from './upstream-methods';

export const WORKERS_PATH = '/api/serviceworkforce/workers';

/** spec 2.3: the worker record's fields are not shown; this shape is the emulator's guess, and clients pass it through. */
export interface EmulatedWorker {
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
 * spec 4.2: list workers. The method, query parameters and response shape are not shown: GET (the example is a plain
 * request without body), any query accepted and echoed back under `query`, workers under `data`.
 */
export function registerWorkersRoute(app: FastifyInstance, state: EmulatorState, recorder: UpstreamRecorder): void {
  app.route({
    method: ALL_METHODS,
    url: WORKERS_PATH,
    ...recorder.hooksFor('workers'),
    handler: async (request) => {
      if (request.method !== 'GET') throw methodNotAllowed(request.method, 'GET');
      // spec 5.4: the workers example names the header `Application`, so it is accepted beside Authorization.
      requireBearer(state, request.headers, true);
      return { data: listWorkers(state), query: request.query };
    },
  });
}

/** The seeded workers, then one per worker of the assignments made through the control API, oldest first. */
export function listWorkers(state: EmulatorState): EmulatedWorker[] {
  const byUuid = new Map<string, EmulatedWorker>(seededWorkers.map((w) => [w.uuid, { ...w, assignedTaskUuids: [] }]));
  // Tasks created on the fly by a partner update have invented workers, so they are left out.
  for (const task of state.assignments.list().reverse()) {
    if (task.origin !== 'control') continue;
    const { workerUuid, companyUuid, assignedTaskUuid } = task.context;
    let worker = byUuid.get(workerUuid);
    if (worker === undefined) {
      const short = workerUuid.slice(0, 8);
      worker = { uuid: workerUuid, firstName: 'Worker', lastName: short, email: `worker-${short}@example.com`, companyUuid, assignedTaskUuids: [] };
      byUuid.set(workerUuid, worker);
    }
    worker.assignedTaskUuids.push(assignedTaskUuid);
  }
  return [...byUuid.values()];
}
