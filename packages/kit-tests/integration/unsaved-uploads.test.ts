import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTaskByAssignedTaskUuid } from '@partner-task-kit/server/store/tasks.repository';
import { markUploadSaved } from '@partner-task-kit/server/store/upload-removals.repository';
import { ASSIGNED_TASK_HEADER, taskUploadsSchema } from '@partner-task-kit/workflow/contract';
import { bearer, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';
import { noisyPhoto, uploadPartly, uploadWithTus, welcomePhoto, welcomePhotoRuleOf } from '../helpers/tus-uploads';

/*
 * docs/api.md#uploads, GET /api/task/uploads: what a worker sent for a step not saved yet comes back from the server,
 * to a page on any device, for the session's own task and attempt only.
 */
describe.each(testDatabases)('the uploads a session finds again, on $name', (engine) => {
  let t: TaskApp;
  let base: string;
  beforeEach(async () => {
    t = await openTaskApp({ engine, uploads: { fileRuleOf: welcomePhotoRuleOf } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterEach(() => t.close());

  const listed = async (token: string | undefined, assignedTaskUuid?: string) => {
    const headers: Record<string, string> = token === undefined ? {} : bearer(token);
    if (assignedTaskUuid !== undefined) headers[ASSIGNED_TASK_HEADER] = assignedTaskUuid;
    const response = await fetch(`${base}/api/task/uploads`, { headers });
    return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
  };

  it("lists each field's newest finished upload of the attempt, not an unfinished one, as no-store", async () => {
    const session = await openSession(t.app);
    const endpoint = `${base}/api/task/uploads`;
    await uploadWithTus(endpoint, session.token, await noisyPhoto(1), welcomePhoto);
    // The test's clock stands still: a second later, the worker picks another photo.
    t.clock.advance(1_000);
    const newest = await uploadWithTus(endpoint, session.token, await noisyPhoto(2), welcomePhoto);
    t.clock.advance(1_000);
    // Begun after the newest finished one and left half way: the browser that sent it resumes it, the list does not name it.
    await uploadPartly(endpoint, session.token, await noisyPhoto(3), 100, welcomePhoto);

    const answer = await listed(session.token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(taskUploadsSchema.parse(answer.body)).toEqual({
      uploads: [{ id: newest, ...welcomePhoto, contentType: 'image/jpeg', bytes: expect.any(Number), createdAt: expect.any(String) }],
    });
  });

  it('names no upload a saved step holds: the step answer shows that one', async () => {
    const session = await openSession(t.app);
    const id = await uploadWithTus(`${base}/api/task/uploads`, session.token, await noisyPhoto(4), welcomePhoto);
    const task = await findTaskByAssignedTaskUuid(t.database.store.db, session.context.wxAssignedTaskUuid);
    expect(await markUploadSaved(t.database.store.db, { taskId: task!.id, id, now: t.clock.now() })).toBe(true);
    expect((await listed(session.token)).body).toEqual({ uploads: [] });
  });

  it("never lists another task's uploads, nor an earlier attempt's, nor any without a session", async () => {
    const owner = await openSession(t.app);
    await uploadWithTus(`${base}/api/task/uploads`, owner.token, await noisyPhoto(5), welcomePhoto);
    const other = await openSession(t.app);
    expect(await listed(other.token)).toMatchObject({ status: 200, body: { uploads: [] } });
    // The other session's token naming the owner's task: refused as every task API route refuses it.
    expect((await listed(other.token, owner.context.wxAssignedTaskUuid)).status).toBe(403);
    expect(await listed(undefined)).toMatchObject({ status: 401, body: { error: { code: 'missing_token' } } });

    expect((await listed(owner.token)).body).toMatchObject({ uploads: [{ ...welcomePhoto }] });
    for (const action of ['start', 'restart']) {
      const response = await t.app.inject({ method: 'POST', url: `/api/task/${action}`, headers: bearer(owner.token), payload: {} });
      expect(response.statusCode).toBe(200);
    }
    expect((await listed(owner.token)).body).toEqual({ uploads: [] });
  });
});
