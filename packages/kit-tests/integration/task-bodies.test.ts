import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, errorCode, newContext, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';

describe('request bodies of the task API', () => {
  let t: TaskApp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await openTaskApp();
    headers = bearer((await openSession(t.app)).token);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(['/api/task/start', '/api/task/restart'])('%s refuses a non-empty body with 400 invalid_body', async (url) => {
    for (const payload of [{ force: true }, [], 'text', 42]) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorCode(response)).toBe('invalid_body');
    }
  });

  it('accepts no body at all: start, then restart, each on a task of its own', async () => {
    // A fresh task each, so the outcome does not depend on what other tests did to the shared one.
    const started = bearer((await openSession(t.app)).token);
    const start = await t.app.inject({ method: 'POST', url: '/api/task/start', headers: started });
    expect(start.statusCode).toBe(200);
    expect(start.json()).toMatchObject({ status: 'inProgress', started: true });
    const restart = await t.app.inject({ method: 'POST', url: '/api/task/restart', headers: started });
    expect(restart.statusCode).toBe(200);
    expect(restart.json()).toMatchObject({ status: 'ready', attempt: 2 });
  });

  it.each([
    ['no data', {}, 'data'],
    ['an extra field', { data: {}, step: 2 }, 'body'],
    ['an array', [], 'body'],
    ['null', null, 'body'],
  ])('POST /api/task/steps/:id refuses %s with 400 invalid_body', async (_name, payload, field) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/task/steps/welcome',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_body', field });
  });

  it('refuses a content type it does not speak with a 4xx', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/task/steps/welcome',
      headers: { ...headers, 'content-type': 'application/xml' },
      payload: '<data/>',
    });
    expect(response.statusCode).toBe(415);
    expect(errorCode(response)).toBe('unsupported_media_type');
  });

  it('refuses malformed JSON with 400 invalid_json', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/task/steps/welcome',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"data":',
    });
    expect([response.statusCode, errorCode(response)]).toEqual([400, 'invalid_json']);
  });

  /** Thousands of malformed bodies, never a 5xx, always the error body of docs/api.md#errors. */
  it('never answers 5xx to arbitrary bodies on any endpoint (property)', async () => {
    const context = newContext();
    const session = await openSession(t.app, context);
    const auth = bearer(session.token);
    const stepIds = fc.constantFrom('welcome', 'policy', 'quiz', 'signature', 'x', '..%2f', 'WELCOME', 'a'.repeat(60));
    const body = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.record({ data: fc.jsonValue() }).map((value) => JSON.stringify(value)),
      fc
        .record({
          data: fc.record(
            {
              answers: fc.dictionary(fc.string(), fc.jsonValue()),
              fullName: fc.string(),
              confirmed: fc.jsonValue(),
              acknowledged: fc.jsonValue(),
              policyVersion: fc.string(),
            },
            { requiredKeys: [] },
          ),
        })
        .map((value) => JSON.stringify(value)),
      fc
        .record(
          {
            wxWorkerUuid: fc.oneof(fc.uuid(), fc.string()),
            wxAssignedTaskUuid: fc.oneof(fc.constant(context.wxAssignedTaskUuid), fc.uuid(), fc.string()),
            wxTaskFlowUuid: fc.uuid(),
            wxCompanyUuid: fc.uuid(),
          },
          { requiredKeys: [] },
        )
        .map((value) => JSON.stringify(value)),
      fc.string(),
    );
    const request = fc.record({
      target: fc.oneof(
        fc.constant({ method: 'POST' as const, url: '/api/session' }),
        fc.constant({ method: 'POST' as const, url: '/api/task/start' }),
        fc.constant({ method: 'POST' as const, url: '/api/task/restart' }),
        stepIds.map((id) => ({ method: 'POST' as const, url: `/api/task/steps/${id}` })),
      ),
      body,
      contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
    });
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ target, body: payload, contentType }) => {
        sent += 1;
        const response = await t.app.inject({ ...target, headers: { ...auth, 'content-type': contentType }, payload });
        expect(response.statusCode, `${target.url} ${payload}`).toBeLessThan(500);
        if (response.statusCode >= 400) expect(errorCode(response)).toMatch(/^[a-z_]+$/);
      }),
      { numRuns: 2500 },
    );
    expect(sent).toBe(2500);
  }, 120_000);
});
