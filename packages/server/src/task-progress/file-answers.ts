import { fileFieldsOf, storedFileType, type StepDefinition } from '@partner-task-kit/workflow';
import { apiError } from '../api-error.ts';
import type { StoreDb } from '../store/database-schema.ts';
import type { Task } from '../store/tasks.table.ts';
import { findUpload } from '../store/uploads.repository.ts';

/** What a step's answer says of a file: never its bytes (docs/api.md#uploads). */
export interface FileAnswer {
  id: string;
  contentType: string;
  bytes: number;
  sha256: string;
}

/**
 * Each file field of a step's answer (already parsed by its schema) names a completed upload of this task and attempt,
 * sent for this step and field, of a type and size the field accepts; anything else is 400 invalid_step_data naming
 * the field, as one upload id looks like another to the schema.
 */
export async function checkFileAnswers(
  db: StoreDb,
  task: Pick<Task, 'id' | 'attempt'>,
  step: Pick<StepDefinition, 'id' | 'schema'>,
  data: unknown,
): Promise<Record<string, FileAnswer>> {
  const answers: Record<string, FileAnswer> = {};
  for (const [field, rule] of Object.entries(fileFieldsOf(step.schema))) {
    const id = (data as Record<string, unknown> | null)?.[field];
    if (typeof id !== 'string') continue;
    const upload = await findUpload(db, id);
    const path = `data.${field}`;
    const own = upload?.taskId === task.id && upload.attempt === task.attempt && upload.stepId === step.id && upload.field === field;
    if (!upload || !own || upload.state !== 'completed' || upload.contentType === null || upload.bytes === null || upload.sha256 === null) {
      throw apiError('invalid_step_data', `${path} must be the id of a file uploaded for it in this attempt, and complete`, path);
    }
    // The row holds the type as stored: a HEIC photo sent for a field accepting HEIC was kept as a JPEG.
    const storedTypes: readonly string[] = rule.types.map(storedFileType);
    if (!storedTypes.includes(upload.contentType) || upload.bytes > rule.maxBytes) {
      throw apiError('invalid_step_data', `${path} must be a file of ${rule.types.join(', ')} of at most ${rule.maxBytes} bytes`, path);
    }
    answers[field] = { id, contentType: upload.contentType, bytes: upload.bytes, sha256: upload.sha256 };
  }
  return answers;
}
