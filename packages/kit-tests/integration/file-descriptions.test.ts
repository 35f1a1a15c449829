import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { describeFiles } from '@partner-task-kit/server/task-progress/file-descriptions';
import { completeUpload, insertUpload } from '@partner-task-kit/server/store/uploads.repository';
import { fileField } from '@partner-task-kit/workflow/file-field';
import { sensitive } from '@partner-task-kit/workflow/sensitive';
import { stepsOf, type WorkflowDefinition } from '@partner-task-kit/workflow/workflow-definition';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import { workflowCatalog } from '@partner-task-kit/workflow/workflow-catalog';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices } from '../helpers/task-services';

/*
 * packages/server/src/task-progress/file-descriptions.ts on a workflow of the test's own: what events, the partner API and offer
 * requests carry for a file field. The HTTP paths that use it are in partner-file-answers.test.ts.
 */

const now = Date.parse('2026-03-01T09:00:00.000Z');
const image = { types: ['image/jpeg', 'image/png'] } as const;
const schemas = {
  photos: z.object({ front: fileField(image), back: z.optional(fileField(image)), note: z.optional(z.string()) }),
  scan: z.object({ document: sensitive(fileField(image)) }),
  name: z.object({ name: z.string() }),
};
const step = stepsOf(schemas);
const savedReport = () => ({ color: 'neutral' as const, details: 'saved' });
const workflow: WorkflowDefinition = {
  id: 'files-fixture',
  title: 'Files',
  estimatedMinutes: 1,
  steps: [
    step('photos', { shortName: 'Photos', report: savedReport }),
    step('scan', { shortName: 'Scan', report: savedReport }),
    step('name', { shortName: 'Name', report: savedReport }),
  ],
};

describe.each(testDatabases)('file fields described for the partner on $name', (engine) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await engine.open();
  });
  afterEach(() => t.cleanup());

  const newTask = () => taskServices(t.store, { clock: new ManualClock(now), workflows: workflowCatalog([workflow]) }).open();

  async function uploaded(taskId: string, field: string, complete = true) {
    const id = randomBytes(16).toString('base64url');
    await insertUpload(t.store.db, { id, taskId, attempt: 1, stepId: 'photos', field, declaredBytes: 4000, createdAt: now });
    const file = { contentType: 'image/png', bytes: 3000, sha256: randomBytes(32).toString('hex') };
    if (complete) await completeUpload(t.store.db, { id, ...file, completedAt: now });
    return { id, ...file };
  }

  it('replaces each file field’s id with {id, contentType, bytes, sha256}, and leaves every other value as it is', async () => {
    const task = await newTask();
    const front = await uploaded(task.id, 'front');
    const back = await uploaded(task.id, 'back');
    const stepData = { photos: { front: front.id, back: back.id, note: front.id }, name: { name: 'Ana' } };
    expect(await describeFiles(t.store.db, { taskId: task.id, workflow, stepData })).toEqual({
      photos: { front, back, note: front.id },
      name: { name: 'Ana' },
    });
    // The answers given are not changed: the stored ones keep their ids.
    expect(stepData.photos.front).toBe(front.id);
  });

  it('says null for a file no longer kept, another task’s or an unfinished one, and never describes a masked value', async () => {
    const task = await newTask();
    const other = await newTask();
    const others = await uploaded(other.id, 'front');
    const unfinished = await uploaded(task.id, 'back', false);
    const stepData = {
      photos: { front: others.id, back: unfinished.id },
      scan: { document: '••••x1' },
      'no-such-step': { front: others.id },
    };
    expect(await describeFiles(t.store.db, { taskId: task.id, workflow, stepData })).toEqual({
      photos: { front: null, back: null },
      scan: { document: '••••x1' },
      'no-such-step': { front: others.id },
    });
  });

  it('describes a sensitive file field once revealed, and makes no query for answers without a file', async () => {
    const task = await newTask();
    const document = await uploaded(task.id, 'front');
    expect(await describeFiles(t.store.db, { taskId: task.id, workflow, stepData: { scan: { document: document.id } } })).toEqual({
      scan: { document },
    });
    // A closed store answers no query: answers without a file id are given back without one.
    await t.store.close();
    expect(
      await describeFiles(t.store.db, { taskId: task.id, workflow, stepData: { name: { name: 'Ana' }, photos: { note: 'x' } } }),
    ).toEqual({
      name: { name: 'Ana' },
      photos: { note: 'x' },
    });
  });
});
