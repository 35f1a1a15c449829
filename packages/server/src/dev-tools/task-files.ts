import { fileFieldsOf } from '@partner-task-kit/workflow';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';
import { maskSealed } from '../sensitive/sensitive-values.ts';
import type { Store } from '../store/store.ts';
import { findTaskByAssignedTaskUuid } from '../store/tasks.repository.ts';
import type { FileAnswer } from '../task-progress/file-answers.ts';
import { describeFiles } from '../task-progress/file-descriptions.ts';

/** One file of a task's answers, as the preview's panel lists it: where it is answered, and what the partner is told. */
export interface TaskFile extends FileAnswer {
  stepId: string;
  field: string;
}

/**
 * The files of a task's current answers, in the order of its workflow's steps, described as the partner API and the
 * events describe them (packages/server/src/task-progress/file-descriptions.ts). A sensitive one stays masked there, so it is
 * not listed: the panel's key may not reveal it.
 */
export async function taskFilesOf(store: Store, workflows: WorkflowCatalog, assignedTaskUuid: string): Promise<TaskFile[]> {
  const task = await findTaskByAssignedTaskUuid(store.db, assignedTaskUuid);
  const workflow = task && workflows.find(task.workflowId)?.definition;
  if (!task || !workflow) return [];
  const answers = await describeFiles(store.db, { taskId: task.id, workflow, stepData: maskSealed(task.stepData) });
  return workflow.steps.flatMap((step) =>
    Object.keys(fileFieldsOf(step.schema)).flatMap((field) => {
      const value = (answers[step.id] as Record<string, unknown> | undefined)?.[field];
      return isFileAnswer(value) ? [{ stepId: step.id, field, ...value }] : [];
    }),
  );
}

function isFileAnswer(value: unknown): value is FileAnswer {
  return value !== null && typeof value === 'object' && typeof (value as Partial<FileAnswer>).sha256 === 'string';
}
