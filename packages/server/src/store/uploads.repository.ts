import type { StoreDb } from './database-schema.ts';
import type { UploadState } from './uploads.table.ts';

export interface UploadRecord {
  id: string;
  taskId: string;
  attempt: number;
  stepId: string;
  field: string;
  declaredBytes: number;
  state: UploadState;
  contentType: string | null;
  bytes: number | null;
  sha256: string | null;
  createdAt: number;
}

export async function insertUpload(
  db: StoreDb,
  input: Pick<UploadRecord, 'id' | 'taskId' | 'attempt' | 'stepId' | 'field' | 'declaredBytes' | 'createdAt'>,
): Promise<void> {
  await db
    .insertInto('uploads')
    .values({
      id: input.id,
      task_id: input.taskId,
      attempt: input.attempt,
      step_id: input.stepId,
      field: input.field,
      declared_bytes: input.declaredBytes,
      state: 'uploading',
      created_at: input.createdAt,
    })
    .execute();
}

/** The upload, unless it is being removed (docs/operations.md#files): then it answers as one that never was. */
export async function findUpload(db: StoreDb, id: string): Promise<UploadRecord | undefined> {
  const row = await db.selectFrom('uploads').selectAll().where('id', '=', id).where('state', '<>', 'removing').executeTakeFirst();
  return (
    row && {
      id: row.id,
      taskId: row.task_id,
      attempt: Number(row.attempt),
      stepId: row.step_id,
      field: row.field,
      declaredBytes: Number(row.declared_bytes),
      state: row.state,
      contentType: row.content_type,
      bytes: row.bytes === null ? null : Number(row.bytes),
      sha256: row.sha256,
      createdAt: Number(row.created_at),
    }
  );
}

/**
 * What a task holds against its upload quota (docs/configuration.md#uploads): files, and bytes declared. Every upload
 * of it but those being removed and those an earlier attempt's saved steps named, which are that attempt's answers:
 * kept with them, they must not leave a new attempt without a place. Read by the caller holding the task locked.
 */
export async function taskUploadUse(db: StoreDb, input: { taskId: string; attempt: number }): Promise<{ files: number; bytes: number }> {
  const row = await db
    .selectFrom('uploads')
    .select((eb) => [eb.fn.countAll<number | string>().as('files'), eb.fn.sum<number | string | null>('declared_bytes').as('bytes')])
    .where('task_id', '=', input.taskId)
    .where('state', '<>', 'removing')
    .where((eb) => eb.or([eb('attempt', '=', input.attempt), eb('saved_at', 'is', null)]))
    .executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes ?? 0) };
}

/** False when the upload is no longer being uploaded: its row is gone, or claimed for removal meanwhile (an erasure). */
export async function completeUpload(
  db: StoreDb,
  input: { id: string; contentType: string; bytes: number; sha256: string; completedAt: number },
): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({ state: 'completed', content_type: input.contentType, bytes: input.bytes, sha256: input.sha256, completed_at: input.completedAt })
    .where('id', '=', input.id)
    .where('state', '=', 'uploading')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteUpload(db: StoreDb, id: string): Promise<void> {
  await db.deleteFrom('uploads').where('id', '=', id).execute();
}

/** What each completed upload among `ids` of the task is, without its bytes: the others (unknown, unfinished, another task's) are left out. */
export async function describeCompletedUploads(
  db: StoreDb,
  input: { taskId: string; ids: readonly string[] },
): Promise<{ id: string; contentType: string; bytes: number; sha256: string }[]> {
  if (input.ids.length === 0) return [];
  const rows = await db
    .selectFrom('uploads')
    .select(['id', 'content_type', 'bytes', 'sha256'])
    .where('task_id', '=', input.taskId)
    .where('id', 'in', input.ids)
    .where('state', '=', 'completed')
    .execute();
  return rows.flatMap((row) =>
    row.content_type === null || row.bytes === null || row.sha256 === null
      ? []
      : [{ id: row.id, contentType: row.content_type, bytes: Number(row.bytes), sha256: row.sha256 }],
  );
}

/**
 * The completed uploads of the task's attempt that no saved step has named yet, newest first: what the worker sent
 * for a step still open, which a page on any device shows as done (docs/api.md#uploads).
 */
export async function listUnsavedCompletedUploads(
  db: StoreDb,
  input: { taskId: string; attempt: number },
): Promise<{ id: string; stepId: string; field: string; contentType: string; bytes: number; createdAt: number }[]> {
  const rows = await db
    .selectFrom('uploads')
    .select(['id', 'step_id', 'field', 'content_type', 'bytes', 'created_at'])
    .where('task_id', '=', input.taskId)
    .where('attempt', '=', input.attempt)
    .where('state', '=', 'completed')
    .where('saved_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.flatMap((row) =>
    row.content_type === null || row.bytes === null
      ? []
      : [
          {
            id: row.id,
            stepId: row.step_id,
            field: row.field,
            contentType: row.content_type,
            bytes: Number(row.bytes),
            createdAt: Number(row.created_at),
          },
        ],
  );
}
