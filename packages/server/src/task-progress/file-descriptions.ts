import type { TaskView } from '@partner-task-kit/workflow/contract';
import { fileFieldsOf, UPLOAD_ID_PATTERN, type WorkflowCatalog, type WorkflowDefinition, stepById } from '@partner-task-kit/workflow';
import type { StoreDb } from '../store/database-schema.ts';
import { describeCompletedUploads } from '../store/uploads.repository.ts';
import type { FileAnswer } from './file-answers.ts';

/**
 * The answers as the partner's backend is given them (docs/connecting-your-backend.md#files): each file field's upload
 * id replaced by what the file is, `{id, contentType, bytes, sha256}`, never its bytes; `null` when the upload is no
 * longer kept. The stored step data keep the bare id, which the step's schema and the page read: this is applied
 * where answers leave for the partner (events, the partner API, offer requests). A file field holding no upload id (a
 * sensitive one, masked as "••••x1" or still sealed) is left as it is: only a reveal shows it.
 */
export async function describeFiles(
  db: StoreDb,
  input: { taskId: string; workflow: WorkflowDefinition; stepData: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  const places: { stepId: string; field: string; id: string }[] = [];
  for (const [stepId, data] of Object.entries(input.stepData)) {
    const step = stepById(input.workflow, stepId);
    if (!step || data === null || typeof data !== 'object' || Array.isArray(data)) continue;
    for (const field of Object.keys(fileFieldsOf(step.schema))) {
      const value = (data as Record<string, unknown>)[field];
      if (typeof value === 'string' && UPLOAD_ID_PATTERN.test(value)) places.push({ stepId, field, id: value });
    }
  }
  // Most answers hold no file: they are given back as they are (the same object), without a query.
  if (places.length === 0) return input.stepData;
  const ids = [...new Set(places.map((place) => place.id))];
  const found = new Map<string, FileAnswer>(
    (await describeCompletedUploads(db, { taskId: input.taskId, ids })).map((file) => [file.id, file]),
  );
  const described: Record<string, unknown> = { ...input.stepData };
  for (const { stepId, field, id } of places) {
    described[stepId] = { ...(described[stepId] as Record<string, unknown>), [field]: found.get(id) ?? null };
  }
  return described;
}

/** One step's answer, described as `describeFiles` does: `data` itself when it holds no file. */
export async function describeStepFiles(
  db: StoreDb,
  input: { taskId: string; workflow: WorkflowDefinition; stepId: string; data: unknown },
): Promise<unknown> {
  const described = await describeFiles(db, { ...input, stepData: { [input.stepId]: input.data } });
  return described[input.stepId];
}

/** A task view handed to the partner (the answer of a step it completes), its file fields described. */
export async function describeViewFiles(db: StoreDb, workflows: WorkflowCatalog, view: TaskView): Promise<TaskView> {
  const registered = workflows.find(view.workflow.id);
  if (!registered) return view;
  return { ...view, stepData: await describeFiles(db, { taskId: view.id, workflow: registered.definition, stepData: view.stepData }) };
}
