import type { Readable } from 'node:stream';
import { UPLOAD_ID_PATTERN, sensitivePaths, stepById, type WorkflowCatalog } from '@partner-task-kit/workflow';
import { apiError } from '../api-error.ts';
import { recordReveals } from '../store/sensitive-reveals.repository.ts';
import type { Store } from '../store/store.ts';
import { findUpload } from '../store/uploads.repository.ts';
import type { PartnerKey } from '../store/partner-keys.table.ts';
import type { FileAnswer } from '../task-progress/file-answers.ts';
import { workflowOf } from '../task-progress/locked-task.ts';
import { readPartnerTask } from '../task-progress/partner-task-access.ts';
import { storedFileName } from '../uploads/stored-file-name.ts';
import type { UploadFiles } from '../uploads/upload-files.ts';

/** A stored file as the partner downloads it: what it is (its checked type first) and its bytes, as a stream. */
export interface PartnerUpload {
  file: FileAnswer;
  /** `<uploadId>.<extension of its checked type>`: nothing the worker named reaches a header. */
  filename: string;
  bytes: Readable;
}

/**
 * The bytes of one upload of a task (docs/connecting-your-backend.md#files), under the partner API's rules: the task
 * must be one the key may see (another company's answers as an unknown task), and the upload a completed one of that
 * task, of any attempt, whose bytes are still kept; anything else answers as an upload that never was. A file of a
 * sensitive field is given only to a key that may reveal, and its reveal is recorded before a byte is sent.
 */
export async function openPartnerUpload(
  store: Store,
  workflows: WorkflowCatalog,
  files: UploadFiles,
  input: { assignedTaskUuid: string; uploadId: string; key: PartnerKey; companies: ReadonlySet<string> | undefined; now: number },
): Promise<PartnerUpload> {
  const task = await readPartnerTask(store.db, input.assignedTaskUuid, input.companies);
  const upload = UPLOAD_ID_PATTERN.test(input.uploadId) ? await findUpload(store.db, input.uploadId) : undefined;
  if (!upload || upload.taskId !== task.id || upload.state !== 'completed') throw uploadNotFound();
  const { contentType, bytes, sha256 } = upload;
  if (contentType === null || bytes === null || sha256 === null) throw uploadNotFound();

  const step = stepById(workflowOf(workflows, task), upload.stepId);
  const sensitive = step !== undefined && sensitivePaths(step.schema).some((path) => path.length === 1 && path[0] === upload.field);
  if (sensitive && !input.key.revealSensitive) {
    throw apiError('reveal_not_allowed', `Key ${input.key.name} may not download a sensitive file: create one with --reveal-sensitive.`);
  }
  const stream = await files.open(upload.id);
  // Removed from the store meanwhile (an erasure, retention): gone, as if it never was.
  if (!stream) throw uploadNotFound();
  if (sensitive) {
    const field = `${upload.stepId}.${upload.field}`;
    const reveal = { keyName: input.key.name, assignedTaskUuid: task.assignedTaskUuid, field, revealedAt: input.now };
    await recordReveals(store.db, [reveal]).catch((error: unknown) => {
      stream.destroy();
      throw error;
    });
  }
  return {
    file: { id: upload.id, contentType, bytes, sha256 },
    filename: storedFileName(upload.id, contentType),
    bytes: stream,
  };
}

function uploadNotFound() {
  return apiError('not_found', 'No such upload for this task.', 'uploadId');
}
