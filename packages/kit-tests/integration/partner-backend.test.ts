import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { control } from '../helpers/emulator-control';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { readUntil } from '../helpers/read-until';
import { consentedToCheck, newContext } from '../helpers/task-app';

/**
 * Emulator mode with no PARTNER_WEBHOOK_URL: the events reach the built-in receiver, which verifies them with the
 * `standardwebhooks` package, and the preview's panel resolves a waiting step through the real partner API.
 */
let server: TestServer;

beforeEach(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent' }, { page: true, partnerRelay: { pollMs: 50 } });
});

afterEach(() => server.close());

interface PanelAnswer {
  receiver: boolean;
  events: { type: string; webhookId: string; verified: boolean; body: { data: { stepId?: string; status: string } } }[];
  awaiting: { stepId: string; shortName: string; results: { label: string; data: unknown }[] } | null;
}

const panel = async (assignedTaskUuid: string) =>
  (await fetch(`${server.url}/emulator/control/partner-backend?assignedTaskUuid=${assignedTaskUuid}`)).json() as Promise<PanelAnswer>;

/** A worker of background-check who consented: the task waits on the partner. */
async function waitingOnPartner() {
  const context = newContext();
  await control(`${server.url}/emulator`).assign(context.wxAssignedTaskUuid, { companyUuid: context.wxCompanyUuid });
  const { token } = await consentedToCheck(server.url, context);
  const readTask = async () =>
    (await (await fetch(`${server.url}/api/task`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      status: string;
      endEvent?: { name: string };
    };
  return { context, readTask };
}

const resolve = (assignedTaskUuid: string, stepId: string, data: unknown) =>
  fetch(`${server.url}/emulator/control/partner-backend/tasks/${assignedTaskUuid}/steps/${stepId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  });

describe('the partner backend of emulator mode', () => {
  it('receives signed events that verify, and offers the waiting step with sample results', async () => {
    const { context } = await waitingOnPartner();
    const answer = await readUntil(
      () => panel(context.wxAssignedTaskUuid),
      (value) => value.events.length > 0,
    );
    expect(answer.receiver).toBe(true);
    expect(answer.events.map((event) => [event.type, event.verified, event.body.data.stepId])).toEqual([
      ['task.step_saved', true, 'consent'],
    ]);
    expect(answer.events[0]!.webhookId).toMatch(/^msg_/);
    expect(answer.awaiting).toEqual({
      stepId: 'check',
      shortName: 'Check',
      results: [
        { label: 'Passed', data: { result: 'passed' } },
        {
          label: 'Failed',
          data: { result: 'failed', details: expect.any(String) },
          workerMessage: { en: expect.any(String), es: expect.any(String) },
        },
      ],
    });
    // Another task's panel lists none of this task's events.
    expect((await panel(randomUUID())).events).toEqual([]);
  });

  it('resolves the step through the partner API: the task completes, the page gets the end event, the event is told', async () => {
    const { context, readTask } = await waitingOnPartner();
    expect((await readTask()).endEvent).toBeUndefined();
    const resolved = await resolve(context.wxAssignedTaskUuid, 'check', { result: 'passed' });
    expect(resolved.status).toBe(200);
    expect(await readTask()).toMatchObject({ status: 'completed', endEvent: { name: 'partner-task-complete' } });
    const answer = await readUntil(
      () => panel(context.wxAssignedTaskUuid),
      (value) => value.events.length >= 3,
    );
    // Newest first: the check's step and the completion, each verified.
    expect(answer.events.map((event) => [event.type, event.verified])).toEqual([
      ['task.completed', true],
      ['task.step_saved', true],
      ['task.step_saved', true],
    ]);
    expect(answer.awaiting).toBeNull();
    // Resolved once: a second result is refused by the partner API, in its own shape.
    const again = await resolve(context.wxAssignedTaskUuid, 'check', { result: 'failed' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('step_not_awaiting_partner');
  });

  it("answers the partner API's refusal of data the step does not take", async () => {
    const { context } = await waitingOnPartner();
    const refused = await resolve(context.wxAssignedTaskUuid, 'check', { result: 'maybe' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_step_data');
  });

  it('refuses data nested past 64 levels as the partner API does, with 400 invalid_body', async () => {
    const { context } = await waitingOnPartner();
    const deep = await fetch(`${server.url}/emulator/control/partner-backend/tasks/${context.wxAssignedTaskUuid}/steps/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"data":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
    });
    expect([deep.status, await deep.json()]).toEqual([
      400,
      { error: { code: 'invalid_body', message: 'data nests more than 64 arrays and objects deep', field: 'data' } },
    ]);
  });
});
