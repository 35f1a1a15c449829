import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoggedRequest } from '@partner-task-kit/dev/emulator/request-log';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import type { AssignmentView } from '@partner-task-kit/dev/emulator/task-rules';
import { act, controlRequest, createAssignment, fetchToken, postUpdate, requestToken, update, WORKERS_PATH } from './emulator-client';

type ErrorAnswer = { error: { code: string; field?: string } };

describe('emulator: the control API', () => {
  let emulator: RunningEmulator;
  beforeEach(async () => {
    emulator = await startEmulator();
  });
  afterEach(() => emulator.close());

  it('creates an assignment with defaults and a launch URL carrying the four context parameters of spec 2.5', async () => {
    const task = await createAssignment(emulator.url, { iframeUrl: 'https://partner.example.com/task?lang=fr&x=a%20b#top' });
    expect(task.options).toEqual({
      title: 'Safety quiz',
      iframeUrl: 'https://partner.example.com/task?lang=fr&x=a%20b#top',
      appendTaskContext: true,
      hideTaskCompletedButton: false,
      requireReview: false,
    });
    const { workerUuid, assignedTaskUuid, taskFlowUuid, companyUuid } = task;
    expect(task.launchUrl).toBe(
      `https://partner.example.com/task?lang=fr&x=a%20b&wxWorkerUuid=${workerUuid}&wxAssignedTaskUuid=${assignedTaskUuid}` +
        `&wxTaskFlowUuid=${taskFlowUuid}&wxCompanyUuid=${companyUuid}#top`,
    );
  });

  it('keeps the given context and options, and the iframe URL as is without appendTaskContext', async () => {
    const context = {
      workerUuid: '11111111-1111-4111-8111-111111111111',
      assignedTaskUuid: '22222222-2222-4222-8222-222222222222',
      taskFlowUuid: '33333333-3333-4333-8333-333333333333',
      companyUuid: '44444444-4444-4444-8444-444444444444',
    };
    const task = await createAssignment(emulator.url, {
      ...context,
      appendTaskContext: false,
      estimatedCompletionTime: 'about 10 minutes',
      endEvent: 'quiz-done',
    });
    expect(task).toMatchObject({ ...context, launchUrl: 'https://partner.example.com/task' });
    expect(task.options).toMatchObject({ estimatedCompletionTime: 'about 10 minutes', endEvent: 'quiz-done' });
    const again = await controlRequest<ErrorAnswer>(emulator.url, 'POST', '/assignments', {
      title: 'x',
      iframeUrl: 'https://a.example/',
      ...context,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('assignment_exists');
  });

  it.for([
    ['a missing title', { iframeUrl: 'https://a.example/' }, 'title'],
    ['a blank title', { title: '  ', iframeUrl: 'https://a.example/' }, 'title'],
    ['a missing iframeUrl', { title: 'Quiz' }, 'iframeUrl'],
    ['an iframeUrl that is not http(s)', { title: 'Quiz', iframeUrl: 'ftp://a.example/' }, 'iframeUrl'],
    ['a context value that is not a UUID', { title: 'Quiz', iframeUrl: 'https://a.example/', workerUuid: 'w-1' }, 'workerUuid'],
    ['a flag that is not a boolean', { title: 'Quiz', iframeUrl: 'https://a.example/', requireReview: 'yes' }, 'requireReview'],
    ['an unknown option', { title: 'Quiz', iframeUrl: 'https://a.example/', colour: 'blue' }, 'colour'],
  ] as const)('refuses an assignment with %s with 400 naming the field', async ([, body, field]) => {
    const response = await controlRequest<ErrorAnswer>(emulator.url, 'POST', '/assignments', body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_body', field });
  });

  it('answers malformed control JSON with 400, not 500', async () => {
    const response = await fetch(`${emulator.url}/control/assignments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorAnswer).error.code).toBe('malformed_json');
  });

  it('lists assignments newest first and answers 404 for an unknown one', async () => {
    const first = await createAssignment(emulator.url, { title: 'First' });
    const second = await createAssignment(emulator.url, { title: 'Second' });
    const { body } = await controlRequest<{ assignments: AssignmentView[] }>(emulator.url, 'GET', '/assignments');
    expect(body.assignments.map((a) => a.assignedTaskUuid)).toEqual([second.assignedTaskUuid, first.assignedTaskUuid]);
    const missing = await controlRequest<ErrorAnswer>(emulator.url, 'GET', '/assignments/55555555-5555-4555-8555-555555555555');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('assignment_not_found');
  });

  it('refuses an unknown action with 400 and an action on an unknown assignment with 404', async () => {
    const task = await createAssignment(emulator.url);
    const unknown = await act(emulator.url, task.assignedTaskUuid, 'archive');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.code).toBe('invalid_action');
    expect((await act(emulator.url, '55555555-5555-4555-8555-555555555555', 'start')).status).toBe(404);
  });

  it('logs upstream requests newest last, filters them by endpoint and limit, and clears them', async () => {
    const token = await fetchToken(emulator.url);
    await postUpdate(emulator.url, token, '66666666-6666-4666-8666-666666666666', update('inProgress', 1));
    await postUpdate(emulator.url, token, '66666666-6666-4666-8666-666666666666', update('completed', 2));
    await fetch(`${emulator.url}${WORKERS_PATH}?page=1`, { headers: { authorization: `Bearer ${token}` } });
    const all = await controlRequest<{ requests: LoggedRequest[] }>(emulator.url, 'GET', '/requests');
    expect(all.body.requests.map((r) => r.endpoint)).toEqual(['token', 'partnerTask', 'partnerTask', 'workers']);
    const last = await controlRequest<{ requests: LoggedRequest[] }>(emulator.url, 'GET', '/requests?endpoint=partnerTask&limit=1');
    expect(last.body.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        status: 200,
        body: update('completed', 2),
        path: '/api/servicetodo/processes/partnerTasks/66666666-6666-4666-8666-666666666666',
      }),
    ]);
    expect(last.body.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(all.body.requests[3]?.query).toEqual({ page: '1' });
    expect((await controlRequest(emulator.url, 'GET', '/requests?endpoint=control')).status).toBe(400);
    expect((await controlRequest(emulator.url, 'DELETE', '/requests')).body).toEqual({ cleared: 4 });
    expect((await controlRequest<{ requests: LoggedRequest[] }>(emulator.url, 'GET', '/requests')).body.requests).toEqual([]);
  });

  it('keeps only the last requestLogLimit requests', async () => {
    await emulator.close();
    emulator = await startEmulator({ requestLogLimit: 3 });
    for (let i = 0; i < 5; i += 1) await requestToken(emulator.url);
    const { body } = await controlRequest<{ requests: LoggedRequest[] }>(emulator.url, 'GET', '/requests');
    expect(body.requests.map((r) => r.seq)).toEqual([3, 4, 5]);
  });

  it('moves the clock ahead and refuses to move it back', async () => {
    const before = await controlRequest<{ epochMs: number; now: string }>(emulator.url, 'GET', '/clock');
    const after = await controlRequest<{ epochMs: number }>(emulator.url, 'POST', '/clock', { advanceMs: 3_600_000 });
    expect(after.body.epochMs - before.body.epochMs).toBeGreaterThanOrEqual(3_600_000);
    const back = await controlRequest<ErrorAnswer>(emulator.url, 'POST', '/clock', { advanceMs: -1 });
    expect(back.status).toBe(400);
    expect(back.body.error.field).toBe('advanceMs');
  });

  it('reads and changes the settings, refusing unknown values', async () => {
    expect((await controlRequest(emulator.url, 'GET', '/settings')).body).toEqual({
      tokenShape: 'oauth',
      unknownTasks: 'create',
      acceptViewed: false,
      partnerTaskPermission: true,
    });
    const changed = await controlRequest(emulator.url, 'PUT', '/settings', { unknownTasks: 'reject', acceptViewed: true });
    expect(changed.body).toEqual({ tokenShape: 'oauth', unknownTasks: 'reject', acceptViewed: true, partnerTaskPermission: true });
    const token = await fetchToken(emulator.url);
    expect((await postUpdate(emulator.url, token, '77777777-7777-4777-8777-777777777777', update('viewed', 1))).status).toBe(404);
    const refused = await controlRequest<ErrorAnswer>(emulator.url, 'PUT', '/settings', { tokenShape: 'xml' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.field).toBe('tokenShape');
  });

  it('resets assignments, tokens, requests and faults, but keeps the settings', async () => {
    const token = await fetchToken(emulator.url);
    await createAssignment(emulator.url);
    await controlRequest(emulator.url, 'PUT', '/settings', { tokenShape: 'camelCase' });
    await controlRequest(emulator.url, 'POST', '/faults', { endpoint: 'workers', kind: 'drop' });
    expect((await controlRequest(emulator.url, 'POST', '/reset')).status).toBe(200);
    expect((await controlRequest<{ assignments: unknown[] }>(emulator.url, 'GET', '/assignments')).body.assignments).toEqual([]);
    expect((await controlRequest<{ faults: unknown[] }>(emulator.url, 'GET', '/faults')).body.faults).toEqual([]);
    expect((await controlRequest<{ requests: unknown[] }>(emulator.url, 'GET', '/requests')).body.requests).toEqual([]);
    expect((await fetch(`${emulator.url}${WORKERS_PATH}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await controlRequest(emulator.url, 'GET', '/settings')).body).toMatchObject({ tokenShape: 'camelCase' });
  });

  it('answers an unknown route with a JSON 404', async () => {
    const response = await fetch(`${emulator.url}/api/unknown`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorAnswer).error.code).toBe('not_found');
  });
});
