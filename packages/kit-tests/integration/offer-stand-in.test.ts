import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { control } from '../helpers/emulator-control';
import { documentPhotos } from '../helpers/file-uploads';
import { testDatabase, type BlankTestDatabase } from '../helpers/test-databases';
import { startTestServer, type TestServer } from '../helpers/test-server';

/*
 * Offers in emulator mode, over real HTTP (docs/connecting-your-backend.md#offers): the stand-in of the partner's
 * backend is asked in the page's language and answers slots with their offset and the place's zone; the offer a slot
 * was booked from is answered again on the screens after the step, the task waiting on the partner or completed, so
 * a reopened page shows the appointment (docs/api.md#get-apitaskstepsstepidoffer).
 */

interface PanelAnswer {
  offers: { requests: { verified: boolean; body: { data: { locale?: string | null } } }[] };
}

describe.each(['sqlite', 'postgres'] as const)('the stand-in backend and booked offers, on %s', (engine) => {
  let database: BlankTestDatabase;
  let server: TestServer;

  beforeEach(async () => {
    database = await testDatabase(engine).create();
    server = await startTestServer({ LOG_LEVEL: 'silent' }, { database, page: true });
  });

  afterEach(async () => {
    await server.close();
    await database.cleanup();
  });

  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  it('asks in Spanish, books a slot, and answers its offer again while the partner verifies and once completed', async () => {
    const context = {
      wxWorkerUuid: randomUUID(),
      wxAssignedTaskUuid: randomUUID(),
      wxTaskFlowUuid: randomUUID(),
      wxCompanyUuid: randomUUID(),
    };
    const task = context.wxAssignedTaskUuid;
    await control(`${server.url}/emulator`).assign(task, { companyUuid: context.wxCompanyUuid });
    const { token } = (await call('POST', '/api/session', undefined, { ...context, workflow: 'work-authorization' })) as { token: string };
    await call('POST', '/api/task/steps/citizenship', token, { data: { citizen: true } });
    await call('POST', '/api/task/steps/national-id', token, { data: { nationalId: 'ZQ73159048' } });
    await call('POST', '/api/task/steps/photos', token, { data: await documentPhotos(server.app, token) });
    await call('POST', '/api/task/steps/postcode', token, { data: { postcode: '28001' } });

    const shown = await call('GET', '/api/task/steps/appointment/offer?locale=es', token);
    expect(shown.offer).toEqual({
      slots: [
        { id: 'slot-1', startsAt: '2030-01-07T09:00:00+01:00', timeZone: 'Europe/Madrid', place: 'Centro de verificación, 28001' },
        { id: 'slot-2', startsAt: '2030-01-08T14:00:00+01:00', timeZone: 'Europe/Madrid', place: 'Centro de verificación, 28001' },
      ],
    });
    expect(shown.empty).toBe(false);
    const panel = async () => (await call('GET', `/emulator/control/partner-backend?assignedTaskUuid=${task}`)) as unknown as PanelAnswer;
    expect((await panel()).offers.requests.map((request) => [request.verified, request.body.data.locale])).toEqual([[true, 'es']]);

    await call('POST', '/api/task/steps/appointment', token, { data: { slotId: 'slot-1' } });
    expect(await call('GET', '/api/task/steps/appointment/offer?locale=es', token)).toEqual(shown);

    const resolved = (await call('POST', `/emulator/control/partner-backend/tasks/${task}/steps/verification`, undefined, {
      data: { result: 'passed' },
    })) as { task: { status: string; stepData: { appointment: unknown } } };
    expect([resolved.task.status, resolved.task.stepData.appointment]).toEqual(['completed', { slotId: 'slot-1' }]);
    // A new session, as a reopened page in another browser opens: the booked offer is the server's, not the page's.
    const reopened = (await call('POST', '/api/session', undefined, context)) as { token: string };
    expect(await call('GET', '/api/task/steps/appointment/offer', reopened.token)).toEqual(shown);
    expect((await panel()).offers.requests).toHaveLength(1);
  });
});
