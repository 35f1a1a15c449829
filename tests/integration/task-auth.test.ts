import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signSessionToken } from '../../server/session/session-token';
import { bearer, errorCode, newContext, openSession, openTaskApp, sessionEndpoints, TEST_SECRETS, type TaskApp } from '../helpers/task-app';

/** Issue 4 acceptance: every session endpoint refuses bad, expired and other tasks' tokens with the right 4xx and code. */
describe.each(sessionEndpoints)('$method $url authentication', (endpoint) => {
  let t: TaskApp;
  beforeEach(async () => {
    t = await openTaskApp();
  });
  afterEach(async () => {
    await t.close();
  });

  const call = (headers: Record<string, string>) =>
    t.app.inject({ method: endpoint.method, url: endpoint.url, headers, ...(endpoint.body === undefined ? {} : { payload: endpoint.body }) });

  it('answers 401 missing_token without an Authorization header', async () => {
    const response = await call({});
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('missing_token');
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it.each([
    ['a garbage token', 'Bearer abc'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
    ['a token of three empty parts', 'Bearer v1..'],
  ])('answers 401 invalid_token for %s', async (_name, authorization) => {
    const response = await call({ authorization });
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  });

  it('answers 401 invalid_token for a token signed with another secret', async () => {
    const session = await openSession(t.app);
    const forged = signSessionToken('another-secret-of-at-least-32-characters', session.context, t.clock.now() + 60_000);
    const response = await call(bearer(forged));
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  });

  it('answers 401 invalid_token when the payload was changed to name another task', async () => {
    const mine = await openSession(t.app);
    const other = await openSession(t.app);
    const [version, , signature] = mine.token.split('.');
    const otherPayload = other.token.split('.')[1];
    const response = await call(bearer(`${version}.${otherPayload}.${signature}`));
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  });

  it('answers 401 token_expired once the token has expired, and accepts it just before', async () => {
    const session = await openSession(t.app);
    t.clock.advance(15 * 60 * 1000 - 1);
    expect((await call(bearer(session.token))).statusCode).toBeLessThan(500);
    expect(errorCode(await call(bearer(session.token)))).not.toBe('token_expired');
    t.clock.advance(1);
    const response = await call(bearer(session.token));
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('token_expired');
  });

  it("answers 403 wrong_task when the request names another task than the token's", async () => {
    const mine = await openSession(t.app);
    const other = await openSession(t.app);
    const response = await call({ ...bearer(mine.token), 'x-wx-assigned-task-uuid': other.context.wxAssignedTaskUuid });
    expect(response.statusCode).toBe(403);
    expect(errorCode(response)).toBe('wrong_task');
  });

  it("answers 403 wrong_task for a validly signed token whose context is not the task's", async () => {
    const mine = await openSession(t.app);
    const foreign = signSessionToken(TEST_SECRETS.SESSION_SECRET, { ...mine.context, wxWorkerUuid: newContext().wxWorkerUuid }, t.clock.now() + 60_000);
    const response = await call(bearer(foreign));
    expect(response.statusCode).toBe(403);
    expect(errorCode(response)).toBe('wrong_task');
  });

  it('answers 401 invalid_token for a signed token of a task that does not exist', async () => {
    const ghost = signSessionToken(TEST_SECRETS.SESSION_SECRET, newContext(), t.clock.now() + 60_000);
    const response = await call(bearer(ghost));
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  });

  it("never touches another task: a token acts on its own task only", async () => {
    const mine = await openSession(t.app);
    const other = await openSession(t.app);
    await call(bearer(mine.token));
    const otherView = await t.app.inject({ method: 'GET', url: '/api/task', headers: bearer(other.token) });
    expect(otherView.json()).toMatchObject({ id: other.task.id, status: 'ready', started: false, attempt: 1 });
    const otherUpdates = await t.app.inject({ method: 'GET', url: '/api/task/updates', headers: bearer(other.token) });
    expect(otherUpdates.json().updates).toHaveLength(1);
  });
});
