import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { ApiError } from '@partner-task-kit/server/api-error';
import { checkFileAnswers } from '@partner-task-kit/server/task-progress/file-answers';
import { completeUpload, insertUpload } from '@partner-task-kit/server/store/uploads.repository';
import { fileField } from '@partner-task-kit/workflow/file-field';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices } from '../helpers/task-services';

const now = Date.parse('2026-03-01T09:00:00.000Z');
/** A step as a workflow would define it: no registered workflow has a file field yet. */
const step = { id: 'photos', schema: z.object({ photo: fileField({ types: ['image/jpeg', 'image/png'], maxBytes: 5000 }) }) };

describe.each(testDatabases)('a step answer naming an upload on $name', (engine) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await engine.open();
  });
  afterEach(() => t.cleanup());

  /** A task a worker opened: its first attempt. */
  const openTask = async () => ({ id: (await taskServices(t.store, { clock: new ManualClock(now) }).open()).id, attempt: 1 });

  async function uploaded(input: { taskId: string; attempt: number; contentType?: string; bytes?: number; complete?: boolean }) {
    const id = randomBytes(16).toString('base64url');
    await insertUpload(t.store.db, {
      id,
      taskId: input.taskId,
      attempt: input.attempt,
      stepId: 'photos',
      field: 'photo',
      declaredBytes: 4000,
      createdAt: now,
    });
    if (input.complete !== false) {
      const file = { contentType: input.contentType ?? 'image/jpeg', bytes: input.bytes ?? 3000, sha256: 'ab'.repeat(32) };
      await completeUpload(t.store.db, { id, ...file, completedAt: now });
    }
    return id;
  }

  async function refusal(task: { id: string; attempt: number }, id: string) {
    const error = await checkFileAnswers(t.store.db, task, step, { photo: id }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ApiError);
    return { code: (error as ApiError).code, field: (error as ApiError).field };
  }

  it('takes a completed upload of this task and attempt, and describes it without its bytes', async () => {
    const task = await openTask();
    const id = await uploaded({ taskId: task.id, attempt: task.attempt });
    expect(await checkFileAnswers(t.store.db, task, step, { photo: id })).toEqual({
      photo: { id, contentType: 'image/jpeg', bytes: 3000, sha256: 'ab'.repeat(32) },
    });
  });

  it('takes a HEIC photo, stored as the JPEG it was converted to, for a field accepting HEIC alone', async () => {
    const heicStep = { id: 'photos', schema: z.object({ photo: fileField({ types: ['image/heic'], maxBytes: 5000 }) }) };
    const task = await openTask();
    const id = await uploaded({ taskId: task.id, attempt: task.attempt, contentType: 'image/jpeg' });
    expect(await checkFileAnswers(t.store.db, task, heicStep, { photo: id })).toEqual({
      photo: { id, contentType: 'image/jpeg', bytes: 3000, sha256: 'ab'.repeat(32) },
    });
    // A row naming HEIC would be a file kept unconverted: no field takes it.
    const unconverted = await uploaded({ taskId: task.id, attempt: task.attempt, contentType: 'image/heic' });
    const error = await checkFileAnswers(t.store.db, task, heicStep, { photo: unconverted }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'invalid_step_data', field: 'data.photo' });
  });

  it('refuses an id of another task, another attempt, none that exists, one not complete, or of the wrong type or size', async () => {
    const task = await openTask();
    const other = await openTask();
    const refused = { code: 'invalid_step_data', field: 'data.photo' };
    expect(await refusal(task, await uploaded({ taskId: other.id, attempt: other.attempt }))).toEqual(refused);
    expect(await refusal(task, await uploaded({ taskId: task.id, attempt: task.attempt + 1 }))).toEqual(refused);
    expect(await refusal(task, randomBytes(16).toString('base64url'))).toEqual(refused);
    expect(await refusal(task, await uploaded({ taskId: task.id, attempt: task.attempt, complete: false }))).toEqual(refused);
    expect(await refusal(task, await uploaded({ taskId: task.id, attempt: task.attempt, contentType: 'application/pdf' }))).toEqual(
      refused,
    );
    expect(await refusal(task, await uploaded({ taskId: task.id, attempt: task.attempt, bytes: 6000 }))).toEqual(refused);
  });
});
