import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '@partner-task-kit/server/http/error-handling';
import { taskApi } from '@partner-task-kit/server/task-api/task-api';
import { singleCredentialGate } from '@partner-task-kit/server/tenants/company-credentials';
import { errorCode, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testWorkflows } from '../helpers/test-workflows';

/**
 * docs/api.md#routes: the task API takes bodies of at most 16 KB. That is its default: a route registered beside it
 * that names its own `bodyLimit` (a partner's upload, a tighter endpoint) keeps the limit it set.
 */
describe('body limits of routes beside the task API', () => {
  let t: TaskApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await openTaskApp();
    const { config, clock } = t;
    if (config.tenancy.mode !== 'single') throw new Error('the test app has one credential');
    const tenancy = config.tenancy;
    // As buildApp (packages/server/src/app.ts) makes it, around the task API registered in a scope the test can add routes to.
    app = Fastify({ bodyLimit: 64 * 1024 });
    app.setValidatorCompiler(validatorCompiler);
    registerErrorHandling(app);
    await app.register(async (scope) => {
      await taskApi(scope, {
        config,
        clock,
        store: t.database.store,
        workflows: testWorkflows,
        onUpdateEnqueued: () => {},
        companies: singleCredentialGate(tenancy),
        rateLimits: false,
        pageDirectory: false,
      });
      const echo = async (request: { body: unknown }) => ({ received: JSON.stringify(request.body).length });
      scope.post('/api/test/larger', { bodyLimit: 32 * 1024 }, echo);
      scope.post('/api/test/smaller', { bodyLimit: 1024 }, echo);
      scope.post('/api/test/default', echo);
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  const post = (url: string, size: number) => app.inject({ method: 'POST', url, payload: { padding: 'x'.repeat(size) } });

  it('keeps a larger limit a route sets: a 20 KB body is taken', async () => {
    const response = await post('/api/test/larger', 20_000);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ received: 20_000 + '{"padding":""}'.length });
    expect(errorCode(await post('/api/test/larger', 40_000))).toBe('body_too_large');
  });

  it('keeps a smaller limit a route sets: a 2 KB body is refused with 413 body_too_large', async () => {
    const response = await post('/api/test/smaller', 2_000);
    expect(response.statusCode).toBe(413);
    expect(errorCode(response)).toBe('body_too_large');
    expect((await post('/api/test/smaller', 500)).statusCode).toBe(200);
  });

  it('gives a route that sets none the task API’s 16 KB', async () => {
    expect((await post('/api/test/default', 15_000)).statusCode).toBe(200);
    const response = await post('/api/test/default', 20_000);
    expect(response.statusCode).toBe(413);
    expect(errorCode(response)).toBe('body_too_large');
  });
});
