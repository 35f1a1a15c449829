import type { FastifyInstance } from 'fastify';
import type { AssignedTask } from './assigned-task';
import { actionSchema, createAssignmentSchema, parseControl } from './control-schemas';
import { EmulatorError } from './emulator-error';
import type { EmulatorState } from './emulator-state';

/**
 * The control API's assignments: what the platform would hold once a flow with a partner task (spec 2.4) is assigned
 * to a worker, plus the admin and portal actions of spec 3.
 */
export function registerAssignmentRoutes(app: FastifyInstance, state: EmulatorState): void {
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
