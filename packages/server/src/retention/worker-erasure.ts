import type { Store } from '../store/store.ts';
import { claimUploadsOfTasks } from '../store/upload-removals.repository.ts';
import type { UploadFiles } from '../uploads/upload-files.ts';
import { removeClaimedUploads } from '../uploads/upload-removal.ts';
import { TASK_KEYS_PER_STATEMENT } from '../store/partner-idempotency.repository.ts';
import {
  countUndelivered,
  eraseAnswersAboutTasksStep,
  eraseTasksStep,
  recordErasure,
  workerTaskIds,
  workerTaskKeys,
} from '../store/worker-data.repository.ts';
import { batchRows, inBatches, pacingFor, pause, type BatchPacing } from './batches.ts';

export interface WorkerErasure {
  tasks: number;
  /** Rows of history, updates and events deleted with the tasks. */
  rows: number;
  /** Dropped with the tasks: updates to the platform and events still waiting, and dead letters of both lanes. */
  undelivered: { platform: number; partner: number; dead: number };
  /** The partner API's answers stored about the worker's tasks. */
  idempotencyAnswers: number;
  /** The worker's uploads removed: their bytes from the store (disk or S3), then their rows. */
  files: number;
  /** SQLite: the WAL was emptied, so no old frame keeps an erased value; false when it stayed busy. */
  walTruncated: boolean;
}

/**
 * Deletes everything stored about a worker (docs/operations.md#export-and-erasure): their tasks with their context,
 * step data and history, every outbox row of those tasks, delivered or not, and the partner API's answers stored
 * about those tasks, and the files they uploaded, from `uploadFiles`; then records who erased and when. Undelivered
 * updates go too: an outbox row cannot outlive its task, so the platform keeps the last status it was sent. In
 * batches, and on SQLite with the WAL emptied afterwards.
 */
export async function eraseWorker(
  store: Store,
  input: { workerUuid: string; by: string; now: number; uploadFiles: UploadFiles },
  pacing: BatchPacing = pacingFor(store.dialect),
): Promise<WorkerErasure> {
  const taskIds = await workerTaskIds(store.db, input.workerUuid);
  const taskKeys = await workerTaskKeys(store.db, input.workerUuid);
  const undelivered = await countUndelivered(store.db, taskIds);
  const limit = batchRows(store.dialect);
  const chunks: string[][] = [];
  for (let start = 0; start < taskIds.length; start += limit) chunks.push(taskIds.slice(start, start + limit));
  // The files first, while the tasks still name the worker: a store that fails stops the erasure before any task is
  // deleted, with the rows of the files left claimed, and the same command run again finds them all.
  let files = 0;
  for (const chunk of chunks) {
    await claimUploadsOfTasks(store.db, chunk);
    files += await removeClaimedUploads(store, input.uploadFiles, { taskIds: chunk }, pacing);
  }
  let deleted = 0;
  for (const chunk of chunks) deleted += await inBatches(() => eraseTasksStep(store.db, chunk, limit, input.now), pacing);
  // An upload begun meanwhile was claimed with its task (eraseTasksStep): its bytes go now.
  for (const chunk of chunks) files += await removeClaimedUploads(store, input.uploadFiles, { taskIds: chunk }, pacing);
  // After the tasks: a partner API request about them claimed before this deletes with its answer, and one claimed
  // after finds no task (partner-idempotency.repository.ts, claimIdempotencyKey).
  let idempotencyAnswers = 0;
  for (let start = 0; start < taskKeys.length; start += TASK_KEYS_PER_STATEMENT) {
    const chunk = taskKeys.slice(start, start + TASK_KEYS_PER_STATEMENT);
    idempotencyAnswers += await inBatches(() => eraseAnswersAboutTasksStep(store.db, chunk, limit), pacing);
  }
  await recordErasure(store.db, { by: input.by, at: input.now });
  const walTruncated = await truncateWal(store);
  return { tasks: taskIds.length, rows: deleted - taskIds.length, undelivered, idempotencyAnswers, files, walTruncated };
}

/** A server writing beside the command may keep the WAL busy for a moment: a few tries before reporting it. */
async function truncateWal(store: Store): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await store.truncateWal()) return true;
    await pause(200);
  }
  return false;
}
