import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { errorOf, fetchToken, partnerTaskPath, postUpdate, update } from './emulator-client';

const uuid = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

/** docs/platform.md#partner-task-update-record and docs/platform.md#the-update-endpoint: a bad request gets a 4xx whose JSON names the wrong field; never a 5xx. */
describe('emulator: validation of partner task updates', () => {
  let emulator: RunningEmulator;
  let token: string;
  beforeAll(async () => {
    emulator = await startEmulator();
    token = await fetchToken(emulator.url);
  });
  afterAll(() => emulator.close());

  it.for([
    ['a label of 33 characters', update('inProgress', 1, { partnerStatus: { label: 'x'.repeat(33) } }), 'partnerStatus.label'],
    ['an unknown color', update('inProgress', 1, { partnerStatus: { color: 'red' } }), 'partnerStatus.color'],
    ['an unknown status', update('started', 1), 'taskStatus'],
    ['a missing status', { sentAt: '2026-11-22T10:00:00.000Z' }, 'taskStatus'],
    ['a sentAt that is not ISO 8601', update('inProgress', 1, { sentAt: '22/11/2026 10:00' }), 'sentAt'],
    ['a sentAt without a time zone', update('inProgress', 1, { sentAt: '2026-11-22T10:00:00' }), 'sentAt'],
    ['a missing sentAt', { taskStatus: 'ready' }, 'sentAt'],
    ['a partnerUrl that is not a URL', update('inProgress', 1, { partnerUrl: 'not a url' }), 'partnerUrl'],
    ['a partnerUrl that is not http(s)', update('inProgress', 1, { partnerUrl: 'javascript:alert(1)' }), 'partnerUrl'],
    ['a partnerId that is not a string', update('inProgress', 1, { partnerId: 42 }), 'partnerId'],
    ['an unknown key', update('inProgress', 1, { progress: 50 }), 'progress'],
    ['an unknown key in partnerStatus', update('inProgress', 1, { partnerStatus: { icon: 'star' } }), 'partnerStatus.icon'],
    ['a body that is an array', [update('inProgress', 1)], 'body'],
    ['a body that is null', null, 'body'],
  ] as const)('refuses %s with 400 naming the field', async ([, body, field]) => {
    const response = await postUpdate(emulator.url, token, uuid, body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_body');
    expect(error.field).toBe(field);
    expect(error.message.startsWith(`${field}: `)).toBe(true);
    expect(error.issues?.[0]?.path).toBe(field);
  });

  it('accepts a label of exactly 32 characters and every documented field', async () => {
    const body = update('inProgress', 1, {
      partnerId: 'run-7',
      partnerUrl: 'https://partner.example.com/runs/7',
      partnerStatus: { label: 'x'.repeat(32), color: 'warning', details: 'Waiting for the second document.' },
    });
    expect((await postUpdate(emulator.url, token, uuid, body)).status).toBe(200);
  });

  it('accepts a sentAt with a time zone offset', async () => {
    const response = await postUpdate(emulator.url, token, uuid, update('inProgress', 1, { sentAt: '2030-01-01T12:00:00.123+02:00' }));
    expect(response.status).toBe(200);
  });

  // docs/platform.md#partner-task-update-record says "ISO 8601 date-time" without a profile: every form names an instant, in order.
  it('reads every ISO 8601 form of sentAt and orders them by the instant they name', async () => {
    const forms = [
      '2031-01-01T10:00Z',
      '2031-01-01T11:00:01+01:00',
      '2031-01-01T10:00:02,5+0000',
      '20310101T100003Z',
      '20310101T120004.25+02',
      '2031-01-01t10:00:05.000001z',
    ];
    // A task of its own: the order of the other tests' sentAt values must not matter.
    const task = '0a1b2c3d-4e5f-4a6b-8c7d-000000000001';
    for (const [index, sentAt] of forms.entries()) {
      const answer = await postUpdate(emulator.url, token, task, update(index % 2 === 0 ? 'inProgress' : 'ready', 1, { sentAt }));
      expect({ sentAt, status: answer.status, outcome: ((await answer.json()) as { outcome: string }).outcome }).toEqual({
        sentAt,
        status: 200,
        outcome: 'applied',
      });
    }
    // One second earlier than the last applied, in another zone and form: obsolete.
    const older = await postUpdate(emulator.url, token, task, update('completed', 1, { sentAt: '20310101T050004-0500' }));
    expect(((await older.json()) as { outcome: string }).outcome).toBe('obsolete');
  });

  it.for(['2031-02-30T10:00:00Z', '2031-01-01T24:00:00Z', '2031-01-01T10:00:00+25:00', '2031-01-01 10:00:00Z'])(
    'refuses %s, which is no ISO 8601 date-time',
    async (sentAt) => {
      const response = await postUpdate(emulator.url, token, uuid, update('inProgress', 1, { sentAt }));
      expect(response.status).toBe(400);
    },
  );

  it("answers 403 while the credential's role lacks the partner-task permission (spec 5)", async () => {
    await fetch(`${emulator.url}/control/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ partnerTaskPermission: false }),
    });
    const task = '0a1b2c3d-4e5f-4a6b-8c7d-000000000002';
    try {
      const refused = await postUpdate(emulator.url, token, task, update('inProgress', 1, { sentAt: '2032-01-01T00:00:00Z' }));
      expect(refused.status).toBe(403);
      expect((await errorOf(refused)).code).toBe('permission_denied');
    } finally {
      await fetch(`${emulator.url}/control/settings`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ partnerTaskPermission: true }),
      });
    }
    expect((await postUpdate(emulator.url, token, task, update('inProgress', 1, { sentAt: '2032-01-01T00:00:01Z' }))).status).toBe(200);
  });

  it.for([
    ['malformed JSON', '{"taskStatus":'],
    ['an empty body', ''],
  ])('refuses %s with 400 malformed_json', async ([, body]) => {
    const response = await postUpdate(emulator.url, token, uuid, body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('malformed_json');
  });

  it.for(['text/plain', 'application/x-www-form-urlencoded'])('refuses the content type %s with 415', async (contentType) => {
    const response = await postUpdate(emulator.url, token, uuid, update('inProgress', 1), contentType);
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe('unsupported_media_type');
  });

  it('refuses an unparsable Content-Type header with 415, not 5xx', async () => {
    const response = await postUpdate(emulator.url, token, uuid, update('inProgress', 1), 'application/');
    expect(response.status).toBe(415);
  });

  it('refuses a path that is not a UUID with 400', async () => {
    const response = await postUpdate(emulator.url, token, 'task-42', update('inProgress', 1));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'invalid_path', field: 'assignedTaskUuid' });
  });

  it('refuses a method other than POST with 405', async () => {
    const response = await fetch(`${emulator.url}${partnerTaskPath(uuid)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(405);
  });

  it('refuses a body above the size limit with 413', async () => {
    const response = await postUpdate(
      emulator.url,
      token,
      uuid,
      update('inProgress', 1, { partnerStatus: { details: 'x'.repeat(1_100_000) } }),
    );
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe('body_too_large');
  });

  it('refuses a __proto__ key as an unknown field', async () => {
    const response = await postUpdate(
      emulator.url,
      token,
      uuid,
      '{"taskStatus":"ready","sentAt":"2026-11-22T10:00:00Z","__proto__":{"admin":true}}',
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).field).toBe('__proto__');
  });
});
