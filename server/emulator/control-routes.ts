import type { FastifyInstance } from 'fastify';
import { registerAssignmentRoutes } from './control-assignment-routes';
import { advanceClockSchema, clearFaultsQuerySchema, faultSchema, parseControl, requestsQuerySchema, settingsSchema } from './control-schemas';
import type { EmulatorState } from './emulator-state';

/**
 * The control API (mounted under /control): lets tests and the preview portal drive the emulator. It is not part of the
 * platform's interface, so it is neither logged nor subject to injected faults.
 */
export function registerControlRoutes(app: FastifyInstance, state: EmulatorState): void {
  registerAssignmentRoutes(app, state);

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
    return state.settings;
  });

  app.post('/reset', async () => {
    state.reset();
    return { reset: true };
  });
}
