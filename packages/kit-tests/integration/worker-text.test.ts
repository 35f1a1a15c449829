import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionResponse } from '@partner-task-kit/workflow/contract/session';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { POLICY_VERSION } from '../fixtures/workflows/safety-training/definition';
import { control } from '../helpers/emulator-control';
import { startTestServer, type TestServer } from '../helpers/test-server';

const RIGHT_TO_LEFT_OVERRIDE = '\u202e';
const LONE_HIGH_SURROGATE = '\ud83e';
const passing = { exits: 'b', spill: 'a', ppe: 'c', injury: 'a', lifting: 'b' };

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});

afterEach(() => server.close());

async function post(path: string, body: unknown, token?: string): Promise<Response> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return response;
}

describe("a worker's typed text on its way to the platform", () => {
  it('reaches the emulator without a right-to-left override or a lone surrogate', async () => {
    const emulator = control(`${server.url}/emulator`);
    const context: TaskContext = {
      wxWorkerUuid: randomUUID(),
      wxAssignedTaskUuid: randomUUID(),
      wxTaskFlowUuid: randomUUID(),
      wxCompanyUuid: randomUUID(),
    };
    await emulator.assign(context.wxAssignedTaskUuid, { companyUuid: context.wxCompanyUuid });
    const { token } = (await (await post('/api/session', context)).json()) as SessionResponse;
    await post('/api/task/start', {}, token);
    await post('/api/task/steps/welcome', { data: {} }, token);
    await post('/api/task/steps/policy', { data: { acknowledged: true, policyVersion: POLICY_VERSION } }, token);
    await post('/api/task/steps/quiz', { data: { answers: passing } }, token);
    // JSON.stringify escapes the lone surrogate (\ud83e), so it arrives as one in the parsed body.
    const fullName = `Ana ${RIGHT_TO_LEFT_OVERRIDE}zepóL${LONE_HIGH_SURROGATE}`;
    await post('/api/task/steps/signature', { data: { fullName, confirmed: true } }, token);

    server.relay.wake();
    const completed = async () =>
      (await emulator.requests('partnerTask'))
        .map((request) => request.body as { taskStatus?: string; partnerStatus?: { details?: string } } | null)
        .find((body) => body?.taskStatus === 'completed');
    await expect
      .poll(async () => (await completed())?.partnerStatus?.details, { timeout: 10_000 })
      .toBe('Training completed and signed as "Ana zepóL\ufffd".');

    // As stored in the outbox too, not only as sent.
    const stored = await server.store.db.selectFrom('outbox').select('payload').where('lane', '=', 'platform').execute();
    const details = stored.map(({ payload }) => (JSON.parse(payload) as { partnerStatus?: { details?: string } }).partnerStatus?.details);
    expect(details).toContain('Training completed and signed as "Ana zepóL\ufffd".');
    for (const text of details) expect(text).not.toMatch(/[\u202e\ud800-\udfff]/u);
  });
});
