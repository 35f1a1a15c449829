import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMULATOR_CREDENTIAL, type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import type { ErrorBody } from '@partner-task-kit/dev/emulator/emulator-errors';
import type { AssignmentView } from '@partner-task-kit/dev/emulator/task-rules';
import { control } from '../helpers/emulator-control';
import { controlRequest as controlCall, errorOf, postUpdate, requestToken, update, WORKERS_PATH } from './emulator-client';

/** Two client companies, each with its own integration key (docs/platform.md#authentication), beside the partner-wide default credential. */
const companyA = '3f0c9a1e-5b2d-4e8f-9a6c-1d7e2b4f8a0c';
const companyB = '9d2e4f6a-8b0c-4d1e-a3f5-7b9c1d3e5f70';
const keyA = { key: 'company-a-key', secret: 'company-a-secret-5c1e', companyUuid: companyA };
const keyB = { key: 'company-b-key', secret: 'company-b-secret-8d3f', companyUuid: companyB };
const taskA = 'a1a1a1a1-0000-4000-8000-00000000000a';
const taskB = 'b2b2b2b2-0000-4000-8000-00000000000b';

let emulator: RunningEmulator;

beforeEach(async () => {
  // Company A's uuid is configured in upper case: company uuids are compared case-insensitively (RFC 9562).
  emulator = await startEmulator({ credentials: [EMULATOR_CREDENTIAL, { ...keyA, companyUuid: companyA.toUpperCase() }, keyB] });
  await control(emulator.url).assign(taskA, { companyUuid: companyA });
  await control(emulator.url).assign(taskB, { companyUuid: companyB });
});
afterEach(() => emulator.close());

async function tokenFor(credential: { key: string; secret: string }): Promise<string> {
  const response = await requestToken(emulator.url, credential);
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

const assignment = (uuid: string) => control(emulator.url).assignment<AssignmentView>(uuid);
const notFound = (uuid: string) => ({ code: 'task_not_found', message: `no partner task is assigned with uuid ${uuid} (spec 4.3 rule 1)` });

describe('emulator: client companies with their own credentials', () => {
  it("lets each company's token update its own task, and answers 404 for another company's task", async () => {
    const [tokenA, tokenB] = [await tokenFor(keyA), await tokenFor(keyB)];
    expect((await postUpdate(emulator.url, tokenA, taskA, update('inProgress', 1))).status).toBe(200);
    expect((await postUpdate(emulator.url, tokenB, taskB, update('inProgress', 1))).status).toBe(200);

    const crossed = await postUpdate(emulator.url, tokenA, taskB, update('completed', 2));
    expect(crossed.status).toBe(404);
    // The same answer as for a task that does not exist: nothing about company B's task is revealed.
    expect(await errorOf(crossed)).toEqual(notFound(taskB));
    expect(await assignment(taskB)).toMatchObject({ status: 'inProgress', trail: [expect.objectContaining({ outcome: 'applied' })] });
    expect((await postUpdate(emulator.url, tokenB, taskA, update('error', 2))).status).toBe(404);
    expect((await assignment(taskA)).status).toBe('inProgress');
  });

  it('lets the partner-wide default credential update a task of any company', async () => {
    const token = await tokenFor(EMULATOR_CREDENTIAL);
    expect((await postUpdate(emulator.url, token, taskA, update('completed', 1))).status).toBe(200);
    expect((await postUpdate(emulator.url, token, taskB, update('completed', 1))).status).toBe(200);
    expect([(await assignment(taskA)).status, (await assignment(taskB)).status]).toEqual(['completed', 'completed']);
  });

  it('creates an unknown task in the company of the credential that updated it', async () => {
    const fresh = 'c3c3c3c3-0000-4000-8000-00000000000c';
    expect((await postUpdate(emulator.url, await tokenFor(keyA), fresh, update('inProgress', 1))).status).toBe(200);
    expect(await assignment(fresh)).toMatchObject({ companyUuid: companyA, origin: 'partnerUpdate' });
    expect((await postUpdate(emulator.url, await tokenFor(keyB), fresh, update('completed', 2))).status).toBe(404);
  });

  it("lists only the company's workers to a company-bound token, and every worker to the partner-wide one", async () => {
    const workersOf = async (token: string) => {
      const response = await fetch(`${emulator.url}${WORKERS_PATH}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { data: Array<{ companyUuid: string; assignedTaskUuids: string[] }> };
      return body.data;
    };
    const seenByA = await workersOf(await tokenFor(keyA));
    expect(seenByA.map((worker) => [worker.companyUuid, worker.assignedTaskUuids])).toEqual([[companyA, [taskA]]]);
    const seenByAll = await workersOf(await tokenFor(EMULATOR_CREDENTIAL));
    expect(seenByAll.flatMap((worker) => worker.assignedTaskUuids).sort()).toEqual([taskA, taskB]);
  });

  it('names in the request log the key each request was made with, never its secret or token', async () => {
    const [tokenA, tokenB] = [await tokenFor(keyA), await tokenFor(keyB)];
    await postUpdate(emulator.url, tokenA, taskA, update('inProgress', 1));
    await postUpdate(emulator.url, tokenB, taskB, update('inProgress', 1));
    await postUpdate(emulator.url, tokenA, taskB, update('completed', 2));
    await postUpdate(emulator.url, tokenA, taskA, update('completed', 3));
    await requestToken(emulator.url, { key: keyA.key, secret: 'not-the-secret' });
    await postUpdate(emulator.url, 'a-forged-token', taskA, update('error', 4));

    const requests = await control(emulator.url).requests();
    expect(requests.map((request) => [request.endpoint, request.credentialKey, request.status])).toEqual([
      ['token', keyA.key, 200],
      ['token', keyB.key, 200],
      ['partnerTask', keyA.key, 200],
      ['partnerTask', keyB.key, 200],
      ['partnerTask', keyA.key, 404],
      ['partnerTask', keyA.key, 200],
      // A refused secret or a token the emulator never issued names no credential.
      ['token', undefined, 401],
      ['partnerTask', undefined, 401],
    ]);
    // Every update that reached a task carries its own company's key.
    const applied = requests.filter((request) => request.endpoint === 'partnerTask' && request.status === 200);
    expect(applied.map((request) => [request.path.split('/').at(-1), request.credentialKey])).toEqual([
      [taskA, keyA.key],
      [taskB, keyB.key],
      [taskA, keyA.key],
    ]);
  });
});

describe('emulator: credentials added, rotated and revoked at run time', () => {
  it('refuses a revoked key at the token endpoint and the tokens already issued for it (spec 5)', async () => {
    const runtime = { key: 'runtime-a-key', secret: 'runtime-a-secret', companyUuid: companyA };
    expect(await control(emulator.url).addCredential(runtime)).toEqual({ key: runtime.key, companyUuid: companyA });
    const token = await tokenFor(runtime);
    const tokenB = await tokenFor(keyB);
    expect((await postUpdate(emulator.url, token, taskA, update('inProgress', 1))).status).toBe(200);

    expect(await control(emulator.url).revokeCredential(runtime.key)).toEqual({ revoked: runtime.key, tokensRevoked: 1 });
    const refused = await requestToken(emulator.url, runtime);
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).code).toBe('invalid_credentials');
    const stale = await postUpdate(emulator.url, token, taskA, update('completed', 2));
    expect(stale.status).toBe(401);
    expect(stale.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await errorOf(stale)).code).toBe('token_revoked');
    expect((await fetch(`${emulator.url}${WORKERS_PATH}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    // The refused update is still attributed to the revoked key, and other keys are untouched.
    expect((await control(emulator.url).requests('partnerTask')).at(-1)).toMatchObject({ credentialKey: runtime.key, status: 401 });
    expect((await postUpdate(emulator.url, tokenB, taskB, update('completed', 2))).status).toBe(200);

    // The same Key added again does not bring its old tokens back.
    await control(emulator.url).addCredential(runtime);
    expect((await postUpdate(emulator.url, token, taskA, update('completed', 3))).status).toBe(401);
    expect((await postUpdate(emulator.url, await tokenFor(runtime), taskA, update('completed', 3))).status).toBe(200);
  });

  it('rotates a company key: add the new key, revoke the old one', async () => {
    const rotated = { key: 'company-a-key-2', secret: 'company-a-secret-rotated', companyUuid: companyA };
    const oldToken = await tokenFor(keyA);
    await control(emulator.url).addCredential(rotated);
    const newToken = await tokenFor(rotated);
    // Both keys work while the client switches over.
    expect((await postUpdate(emulator.url, oldToken, taskA, update('inProgress', 1))).status).toBe(200);
    expect((await postUpdate(emulator.url, newToken, taskA, update('inProgress', 2))).status).toBe(200);
    await control(emulator.url).revokeCredential(keyA.key);
    expect((await postUpdate(emulator.url, oldToken, taskA, update('completed', 3))).status).toBe(401);
    expect((await requestToken(emulator.url, keyA)).status).toBe(401);
    expect((await postUpdate(emulator.url, newToken, taskA, update('completed', 3))).status).toBe(200);
    // The new key is bound to company A like the old one.
    expect((await postUpdate(emulator.url, newToken, taskB, update('completed', 3))).status).toBe(404);

    // A reset forgets tokens and tasks, not the credentials; the list never shows a Secret.
    await controlCall(emulator.url, 'POST', '/reset');
    const credentials = await control(emulator.url).credentials();
    expect(credentials).toEqual([
      { key: EMULATOR_CREDENTIAL.key, companyUuid: null },
      { key: keyB.key, companyUuid: companyB },
      { key: rotated.key, companyUuid: companyA },
    ]);
  });

  it.for([
    ['a missing secret', { key: 'k' }, 'secret'],
    ['an empty key', { key: '', secret: 's' }, 'key'],
    ['a key with a colon', { key: 'a:b', secret: 's' }, 'key'],
    ['a company that is not a UUID', { key: 'k', secret: 's', companyUuid: 'acme' }, 'companyUuid'],
    ['an unknown field', { key: 'k', secret: 's', role: 'admin' }, 'role'],
  ] as const)('refuses a credential with %s with 400 naming the field', async ([, body, field]) => {
    const response = await controlCall<ErrorBody>(emulator.url, 'POST', '/credentials', body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_body', field });
  });

  it('refuses an existing key with 409 and an unknown key to revoke with 404', async () => {
    const again = await controlCall<ErrorBody>(emulator.url, 'POST', '/credentials', { key: keyA.key, secret: 'other' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'credential_exists', field: 'key' });
    expect((await requestToken(emulator.url, keyA)).status).toBe(200);
    const missing = await controlCall<ErrorBody>(emulator.url, 'DELETE', '/credentials/nobody');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('credential_not_found');
  });
});
