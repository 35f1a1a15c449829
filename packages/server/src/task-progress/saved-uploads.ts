import { apiError } from '../api-error.ts';
import type { StoreDb } from '../store/database-schema.ts';
import { markUploadSaved } from '../store/upload-removals.repository.ts';
import type { FileAnswer } from './file-answers.ts';

/**
 * Marks each upload a step's answer names (checked by checkFileAnswers) as named by a saved step, in the step's
 * transaction: kept from now on as long as the task's answers, where one never named is removed after a day
 * (docs/operations.md#files). One claimed for removal since it was checked (its day ran out this very moment, or an
 * erasure) is refused as checkFileAnswers refuses an upload that is gone.
 */
export async function keepSavedUploads(db: StoreDb, input: { taskId: string; files: Record<string, FileAnswer>; now: number }) {
  for (const [field, file] of Object.entries(input.files)) {
    if (await markUploadSaved(db, { taskId: input.taskId, id: file.id, now: input.now })) continue;
    const path = `data.${field}`;
    throw apiError('invalid_step_data', `${path} must be the id of a file uploaded for it in this attempt, and complete`, path);
  }
}
