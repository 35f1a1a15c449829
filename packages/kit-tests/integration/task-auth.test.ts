import { UnsecuredJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_TTL_MS, signSessionToken } from '@partner-task-kit/server/session/session-token';
import { bearer, errorCode, newContext, openSession, openTaskApp, sessionEndpoints, TEST_SECRETS, type TaskApp } from '../helpers/task-app';

/** Every session endpoint refuses bad, expired and other tasks' tokens with the right 4xx and code (README: error codes). */
describe.each(sessionEndpoints)('$method $url authentication', (endpoint) => {
  let t: TaskApp;
  beforeEach(async () => {
    t = await openTaskApp();
  });
  afterEach(async () => {
    await t.close();
  });

  const call = (headers: Record<string, string>) =>
    t.app.inject({
      method: endpoint.method,
      url: endpoint.url,
      headers,
      ...(endpoint.body === undefined ? {} : { payload: endpoint.body }),
    });

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
    ['a token of three empty parts', 'Bearer ..'],
    ['a token of the former v1 format', 'Bearer v1.e30.AAAA'],
  ])('answers 401 invalid_token for %s', async (_name, authorization) => {
    const response = await call({ authorization });
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  });

  it('answers 401 invalid_token for a token signed with another secret', async () => {
    const session = await openSession(t.app);
    const forged = await signSessionToken('another-secret-of-at-least-32-characters', session.context, t.clock.now() + 60_000);
    const response = await call(bearer(forged));
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  });

  it('answers 401 invalid_token when the payload was changed to name another task', async () => {
    const mine = await openSession(t.app);
    const other = await openSession(t.app);
    // A JWT is header.payload.signature: my header and signature around the other session's (validly signed) claims.
    const [header, , signature] = mine.token.split('.');
    const otherPayload = other.token.split('.')[1];
    const response = await call(bearer(`${header}.${otherPayload}.${signature}`));
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  });

  it('answers 401 invalid_token for an unsigned token (alg none) naming the task', async () => {
    const mine = await openSession(t.app);
    const { wxWorkerUuid: w, wxAssignedTaskUuid: a, wxTaskFlowUuid: f, wxCompanyUuid: c } = mine.context;
    const expiresAt = t.clock.now() + 60_000;
    const unsigned = new UnsecuredJWT({ w, a, f, c, xms: expiresAt }).setExpirationTime(Math.ceil(expiresAt / 1000)).encode();
    const response = await call(bearer(unsigned));
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  });

  it('answers 401 token_expired once the token has expired, and 200 one millisecond before', async () => {
    const session = await openSession(t.app);
    // Started, so that every session route would succeed (restart needs a started attempt).
    expect((await t.app.inject({ method: 'POST', url: '/api/task/start', headers: bearer(session.token), payload: {} })).statusCode).toBe(
      200,
    );
    t.clock.advance(SESSION_TTL_MS - 1);
    const justBefore = await call(bearer(session.token));
    expect(justBefore.statusCode, justBefore.body).toBe(200);
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
    const foreignContext = { ...mine.context, wxWorkerUuid: newContext().wxWorkerUuid };
    const foreign = await signSessionToken(TEST_SECRETS.SESSION_SECRET, foreignContext, t.clock.now() + 60_000);
    const response = await call(bearer(foreign));
    expect(response.statusCode).toBe(403);
    expect(errorCode(response)).toBe('wrong_task');
  });

  it('answers 401 invalid_token for a signed token of a task that does not exist', async () => {
    const ghost = await signSessionToken(TEST_SECRETS.SESSION_SECRET, newContext(), t.clock.now() + 60_000);
    const response = await call(bearer(ghost));
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  });

  it('never touches another task: a token acts on its own task only', async () => {
    const mine = await openSession(t.app);
    const other = await openSession(t.app);
    await call(bearer(mine.token));
    const otherView = await t.app.inject({ method: 'GET', url: '/api/task', headers: bearer(other.token) });
    expect(otherView.json()).toMatchObject({ id: other.task.id, status: 'ready', started: false, attempt: 1 });
    const otherUpdates = await t.app.inject({ method: 'GET', url: '/api/task/updates', headers: bearer(other.token) });
    expect(otherUpdates.json().updates).toHaveLength(1);
  });
});
