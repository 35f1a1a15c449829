import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { revokePartnerKey } from '@partner-task-kit/server/store/partner-keys.repository';
import { bearer, createPartnerKey, errorCode, newContext, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';

describe.each(testDatabases)('the partner API on $name', (engine) => {
  let t: TaskApp;
  beforeEach(async () => {
    t = await openTaskApp({ engine });
  });
  afterEach(() => t.close());

  it('answers 401 with WWW-Authenticate for a missing, a wrong and a revoked key', async () => {
    const { key, name } = await createPartnerKey(t);
    const url = '/api/partner/v1/tasks';
    const missing = await t.app.inject({ method: 'GET', url });
    expect([missing.statusCode, errorCode(missing), missing.headers['www-authenticate']]).toEqual([401, 'missing_token', 'Bearer']);
    const wrong = await t.app.inject({ method: 'GET', url, headers: bearer(`${key.slice(0, -2)}xx`) });
    expect([wrong.statusCode, errorCode(wrong)]).toEqual([401, 'invalid_token']);
    expect(wrong.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(key) })).statusCode).toBe(200);
    await revokePartnerKey(t.database.store.db, name, t.clock.now());
    const revoked = await t.app.inject({ method: 'GET', url, headers: bearer(key) });
    expect([revoked.statusCode, errorCode(revoked)]).toEqual([401, 'invalid_token']);
    expect(revoked.body).toBe(wrong.body);
  });

  it("answers another company's task exactly as an unknown one, and finds its own whatever the letter case", async () => {
    const own = newContext();
    const other = newContext();
    await openSession(t.app, own);
    await openSession(t.app, other);
    const { key } = await createPartnerKey(t, { companyUuid: own.wxCompanyUuid });
    const get = (id: string) => t.app.inject({ method: 'GET', url: `/api/partner/v1/tasks/${id}`, headers: bearer(key) });
    const foreign = await get(other.wxAssignedTaskUuid);
    const unknown = await get(randomUUID());
    expect(foreign.statusCode).toBe(404);
    expect(errorCode(foreign)).toBe('task_not_found');
    expect(foreign.body).toBe(unknown.body);
    expect((await get(own.wxAssignedTaskUuid.toUpperCase())).statusCode).toBe(200);

    const feed = await t.app.inject({ method: 'GET', url: '/api/partner/v1/tasks', headers: bearer(key) });
    const ids = (feed.json() as { tasks: { assignedTaskUuid: string }[] }).tasks.map((task) => task.assignedTaskUuid);
    expect(ids).toEqual([own.wxAssignedTaskUuid]);
  });

  it('returns the context, the step data and the updates with their delivery state', async () => {
    const session = await openSession(t.app);
    await t.app.inject({ method: 'POST', url: '/api/task/steps/welcome', headers: bearer(session.token), payload: { data: {} } });
    const { key } = await createPartnerKey(t);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/partner/v1/tasks/${session.context.wxAssignedTaskUuid}`,
      headers: bearer(key),
    });
    expect(response.statusCode).toBe(200);
    const task = response.json() as Record<string, unknown> & {
      updates: { record: { taskStatus: string }; delivery: { state: string } }[];
    };
    expect(task).toMatchObject({
      assignedTaskUuid: session.context.wxAssignedTaskUuid,
      context: { workerUuid: session.context.wxWorkerUuid, companyUuid: session.context.wxCompanyUuid.toLowerCase() },
      workflow: { id: 'safety-training' },
      status: 'inProgress',
      attempt: 1,
      currentStep: 'policy',
      stepData: { welcome: {} },
    });
    expect(task.updates.length).toBeGreaterThanOrEqual(2);
    expect(task.updates.map((update) => update.delivery.state)).toEqual(task.updates.map(() => 'pending'));
    expect(task.updates[0]!.record.taskStatus).toBe('ready');
  });

  it('requires an Idempotency-Key, stores the answer once and replays it, and refuses the key with another body', async () => {
    const session = await openSession(t.app);
    const { key } = await createPartnerKey(t);
    const url = `/api/partner/v1/tasks/${session.context.wxAssignedTaskUuid}/steps/welcome`;
    const post = (payload: { data: unknown }, idempotencyKey?: string) =>
      t.app.inject({
        method: 'POST',
        url,
        payload,
        headers: { ...bearer(key), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      });

    const missing = await post({ data: { checked: true } });
    expect([missing.statusCode, errorCode(missing)]).toEqual([400, 'missing_idempotency_key']);

    const first = await post({ data: { checked: true } }, 'retry-1');
    expect([first.statusCode, errorCode(first)]).toEqual([409, 'step_not_awaiting_partner']);
    const again = await post({ data: { checked: true } }, 'retry-1');
    expect([again.statusCode, again.body, again.headers['idempotent-replayed']]).toEqual([409, first.body, 'true']);
    const rows = await t.database.store.db.selectFrom('partner_idempotency').selectAll().execute();
    expect(rows).toHaveLength(1);

    const reused = await post({ data: { checked: false } }, 'retry-1');
    expect([reused.statusCode, errorCode(reused)]).toEqual([409, 'idempotency_key_reused']);
    // Another partner key has keys of its own.
    const { key: otherKey } = await createPartnerKey(t);
    const other = await t.app.inject({
      method: 'POST',
      url,
      payload: { data: { checked: false } },
      headers: { ...bearer(otherKey), 'idempotency-key': 'retry-1' },
    });
    expect(errorCode(other)).toBe('step_not_awaiting_partner');
    expect(other.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses data nested past 64 levels with 400 invalid_body, before anything walks it or stores an answer', async () => {
    const session = await openSession(t.app);
    const { key } = await createPartnerKey(t);
    const post = (payload: string, idempotencyKey: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/partner/v1/tasks/${session.context.wxAssignedTaskUuid}/steps/welcome`,
        payload,
        headers: { ...bearer(key), 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      });
    const nested = (depth: number, inner = '') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

    // 5,000 arrays in 10 KB: a recursive walk runs out of stack on them.
    for (const [index, data] of [nested(5_000), `{"a":${nested(4_990)}}`, nested(65)].entries()) {
      const refused = await post(`{"data":${data}}`, `deep-${index}`);
      expect([refused.statusCode, refused.json()]).toEqual([
        400,
        { error: { code: 'invalid_body', message: 'data nests more than 64 arrays and objects deep', field: 'data' } },
      ]);
    }
    expect(await t.database.store.db.selectFrom('partner_idempotency').selectAll().execute()).toEqual([]);
    // 64 levels are data like any other: the route answers as for any data (this step does not await the partner).
    const deepest = await post(`{"data":${nested(64)}}`, 'deepest');
    expect([deepest.statusCode, errorCode(deepest)]).toEqual([409, 'step_not_awaiting_partner']);
    // A field the body does not take is dropped unread, however deep.
    const extra = await post(`{"data":{},"extra":${nested(5_000)}}`, 'extra');
    expect([extra.statusCode, errorCode(extra)]).toEqual([409, 'step_not_awaiting_partner']);
  });

  it('lists the partner routes in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/partner/v1/tasks',
        '/api/partner/v1/tasks/{assignedTaskUuid}',
        '/api/partner/v1/tasks/{assignedTaskUuid}/steps/{stepId}',
      ]),
    );
    expect(Object.keys(document.paths['/api/partner/v1/tasks/{assignedTaskUuid}/steps/{stepId}']!)).toContain('post');
  });
});
