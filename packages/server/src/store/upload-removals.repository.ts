import type { StoreDb } from './database-schema.ts';
import { eraseInTransaction } from './secure-erasure.ts';
import type { UploadState } from './uploads.table.ts';

/*
 * How a worker's files follow their data (docs/operations.md#files). An upload is removed in two moves: its row is
 * claimed (state `removing`) in the transaction that decides it goes, then its bytes are removed from the store and
 * only then its row. A crash or a store that does not answer leaves at worst a claimed row whose bytes may be gone:
 * the next run finds it and finishes. Never the other way round: bytes whose row is gone are named by nothing, and
 * nothing would ever remove them.
 */

/** An upload of these tasks, as the export lists it: never one being removed. */
export interface StoredUpload {
  id: string;
  taskId: string;
  attempt: number;
  stepId: string;
  field: string;
  state: Exclude<UploadState, 'removing'>;
  contentType: string | null;
  bytes: number | null;
  sha256: string | null;
  createdAt: number;
  completedAt: number | null;
  savedAt: number | null;
}

/**
 * Marks the upload `id` of the task as named by a saved step, in the step's transaction: it is kept from now on, as
 * long as the task's answers. False when it is not a completed upload of the task any more: claimed for removal since
 * it was checked (the 24 hours of one never named ran out, or an erasure), which the step must then refuse. On
 * Postgres the update waits for a claim being written and reads it; a claim waits for this one, and then skips it.
 */
export async function markUploadSaved(db: StoreDb, input: { taskId: string; id: string; now: number }): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set((eb) => ({ saved_at: eb.fn.coalesce('saved_at', eb.val(input.now)) }))
    .where('id', '=', input.id)
    .where('task_id', '=', input.taskId)
    .where('state', '=', 'completed')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Claims one upload for removal (its client terminated it); false when it was claimed or gone already. */
export async function claimUpload(db: StoreDb, id: string): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({ state: 'removing' })
    .where('id', '=', id)
    .where('state', '<>', 'removing')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Claims the uploads of the task's attempts before `attempt` that no saved step named, in the transaction of the
 * restart that began `attempt` (docs/operations.md#files): left half way or replaced, nothing can name them any more.
 * Returns how many.
 */
export async function claimUnsavedUploadsOfEarlierAttempts(db: StoreDb, input: { taskId: string; attempt: number }): Promise<number> {
  const result = await db
    .updateTable('uploads')
    .set({ state: 'removing' })
    .where('task_id', '=', input.taskId)
    .where('attempt', '<', input.attempt)
    .where('saved_at', 'is', null)
    .where('state', '<>', 'removing')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Claims every upload of these tasks for removal (their tasks are deleted, or their answers erased); returns how many. */
export async function claimUploadsOfTasks(db: StoreDb, taskIds: readonly string[]): Promise<number> {
  if (taskIds.length === 0) return 0;
  const result = await db
    .updateTable('uploads')
    .set({ state: 'removing' })
    .where('task_id', 'in', taskIds)
    .where('state', '<>', 'removing')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Claims up to `limit` uploads created before `createdBefore` that no saved step ever named, finished or not; returns
 * how many. The condition is checked again on the rows themselves: one named by a step saved meanwhile stays.
 */
export async function claimUnsavedUploads(db: StoreDb, input: { createdBefore: number; limit: number }): Promise<number> {
  const result = await db
    .updateTable('uploads')
    .set({ state: 'removing' })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('uploads')
        .select('id')
        .where('saved_at', 'is', null)
        .where('created_at', '<', input.createdBefore)
        .where('state', '<>', 'removing')
        .limit(input.limit),
    )
    .where('saved_at', 'is', null)
    .where('state', '<>', 'removing')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Up to `limit` uploads claimed for removal: of these tasks, or of any. */
export async function listClaimedUploads(db: StoreDb, input: { taskIds?: readonly string[]; limit: number }): Promise<string[]> {
  if (input.taskIds?.length === 0) return [];
  const rows = await db
    .selectFrom('uploads')
    .select('id')
    .where('state', '=', 'removing')
    .$if(input.taskIds !== undefined, (qb) => qb.where('task_id', 'in', input.taskIds!))
    .orderBy('task_id')
    .limit(input.limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Deletes the rows of claimed uploads whose bytes were removed, leaving no copy in the file (secure-erasure.ts); returns how many. */
export async function deleteClaimedUploads(db: StoreDb, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await eraseInTransaction(db, (trx) =>
    trx.deleteFrom('uploads').where('id', 'in', ids).where('state', '=', 'removing').executeTakeFirst(),
  );
  return Number(result.numDeletedRows);
}

/** The uploads of these tasks, oldest first, but those being removed. */
export async function listUploadsOfTasks(db: StoreDb, taskIds: readonly string[]): Promise<StoredUpload[]> {
  if (taskIds.length === 0) return [];
  const rows = await db
    .selectFrom('uploads')
    .selectAll()
    .where('task_id', 'in', taskIds)
    .where('state', '<>', 'removing')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    taskId: row.task_id,
    attempt: Number(row.attempt),
    stepId: row.step_id,
    field: row.field,
    state: row.state === 'completed' ? 'completed' : 'uploading',
    contentType: row.content_type,
    bytes: row.bytes === null ? null : Number(row.bytes),
    sha256: row.sha256,
    createdAt: Number(row.created_at),
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
    savedAt: row.saved_at === null ? null : Number(row.saved_at),
  }));
}
