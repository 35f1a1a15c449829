import { type ApiErrorCode, stepRefusal } from '@partner-task-kit/workflow/contract';
import { fileFieldsOf, type FileRule, type WorkflowCatalog, stepById } from '@partner-task-kit/workflow';
import type { Store } from '../store/store.ts';
import { lockTaskByAssignedTaskUuid } from '../store/tasks.repository.ts';
import type { Task } from '../store/tasks.table.ts';
import { insertUpload, taskUploadUse } from '../store/uploads.repository.ts';

/** The rule of a step's file field, or undefined when the step has no such field. */
export type FileRuleOf = (workflowId: string, stepId: string, field: string) => FileRule | undefined;

/** Why an upload is not created: the contract's error (docs/api.md#uploads). */
export interface UploadRefusal {
  code: ApiErrorCode;
  message: string;
  field?: 'Upload-Metadata' | 'Upload-Length';
}

export interface UploadAdmissionDeps {
  store: Store;
  workflows: WorkflowCatalog;
  fileRuleOf: FileRuleOf;
  /** What a task may hold (docs/configuration.md#uploads). */
  quota: { files: number; bytes: number };
  now: () => number;
}

/**
 * The file field's rule as the task's workflow declares it. Looked up as an own field only: a name from the client such
 * as `__proto__` or `toString` must not find what every object inherits.
 */
export function registeredFileRule(workflows: WorkflowCatalog): FileRuleOf {
  return (workflowId, stepId, field) => {
    const workflow = workflows.find(workflowId)?.definition;
    const step = workflow && stepById(workflow, stepId);
    const fields = step ? fileFieldsOf(step.schema) : undefined;
    return fields && Object.hasOwn(fields, field) ? fields[field] : undefined;
  };
}

/**
 * Decides a tus creation and records the upload it allows, in one transaction holding the task's row locked (on
 * Postgres `FOR UPDATE`; on SQLite the write transaction excludes every other writer): two creations at once are
 * counted one after the other, never both against the same use, and a restart or a step saved meanwhile is seen. The
 * upload must be for a file field of the step the worker may answer now, the one `POST /api/task/steps/:stepId` would
 * take (stepRefusal: the current step, which "Back" moves), and fit in what the task may still hold. Returns the refusal,
 * or undefined once the upload's row is written.
 */
export function admitUpload(
  deps: UploadAdmissionDeps,
  task: Pick<Task, 'id' | 'assignedTaskUuid'>,
  upload: { id: string; stepId: string; field: string; size: number | undefined },
): Promise<UploadRefusal | undefined> {
  return deps.store.transact(async (trx) => {
    const locked = await lockTaskByAssignedTaskUuid(trx, task.assignedTaskUuid);
    // Gone since the request found it (released, purged): as readOwnTask answers a session whose task is gone.
    if (!locked || locked.id !== task.id)
      return { code: 'invalid_token', message: 'This session no longer matches a task; open the task again.' };
    const refusal = refusalOf(deps, locked, upload);
    if (refusal) return refusal;
    const { stepId, field } = upload;
    // Known: refusalOf refuses an upload without Upload-Length.
    const size = upload.size!;
    const used = await taskUploadUse(trx, { taskId: locked.id, attempt: locked.attempt });
    if (used.files + 1 > deps.quota.files || used.bytes + size > deps.quota.bytes) {
      return {
        code: 'upload_quota_exceeded',
        message: `A task may hold at most ${deps.quota.files} uploaded files and ${deps.quota.bytes} bytes; it holds ${used.files} files and ${used.bytes} bytes.`,
      };
    }
    const row = { id: upload.id, taskId: locked.id, attempt: locked.attempt, stepId, field };
    await insertUpload(trx, { ...row, declaredBytes: size, createdAt: deps.now() });
    return undefined;
  });
}

/** What the task as locked and the upload's own metadata say against it, before its use is counted. */
function refusalOf(
  deps: UploadAdmissionDeps,
  task: Task,
  upload: { stepId: string; field: string; size: number | undefined },
): UploadRefusal | undefined {
  const { stepId, field, size } = upload;
  const steps = deps.workflows.find(task.workflowId)?.definition.steps ?? [];
  const position = stepRefusal({ status: task.status, currentStep: task.currentStep, steps }, stepId);
  if (position?.code === 'task_closed') return { code: 'task_closed', message: position.message };
  const rule = position?.code === 'invalid_step' ? undefined : deps.fileRuleOf(task.workflowId, stepId, field);
  if (!rule)
    return { code: 'invalid_upload_metadata', message: `Step "${stepId}" has no file field "${field}".`, field: 'Upload-Metadata' };
  if (position) {
    return {
      code: 'step_out_of_order',
      message: `${position.message} A file is taken only for a field of the step the worker can save now.`,
      field: 'Upload-Metadata',
    };
  }
  if (size === undefined)
    return { code: 'invalid_upload_metadata', message: 'Send Upload-Length: the size must be known.', field: 'Upload-Length' };
  if (size === 0) return { code: 'invalid_upload_metadata', message: 'The file is empty: choose it again.', field: 'Upload-Length' };
  if (size > rule.maxBytes) {
    return {
      code: 'upload_too_large',
      message: `The file is ${size} bytes; this field takes at most ${rule.maxBytes}.`,
      field: 'Upload-Length',
    };
  }
  return undefined;
}
