import type { Store } from '../store/store';
import {
  countUndelivered,
  eraseIdempotencyAnswersNaming,
  eraseTasksStep,
  recordErasure,
  workerTaskIds,
} from '../store/worker-data.repository';
import { batchRows, inBatches, pacingFor, pause, type BatchPacing } from './batches';

export interface WorkerErasure {
  tasks: number;
  /** Rows of history, updates and events deleted with the tasks. */
  rows: number;
  /** Dropped with the tasks: updates to the platform and events still waiting, and dead letters of both lanes. */
  undelivered: { platform: number; partner: number; dead: number };
  /** The partner API's stored answers that named the worker. */
  idempotencyAnswers: number;
  /** SQLite: the WAL was emptied, so no old frame keeps an erased value; false when it stayed busy. */
  walTruncated: boolean;
}

/**
 * Deletes everything stored about a worker (docs/operations.md#export-and-erasure): their tasks with their context,
 * step data and history, every outbox row of those tasks, delivered or not, and the partner API's stored answers that
 * name them; then records who erased and when. Undelivered updates go too: an outbox row cannot outlive its task, so
 * the platform keeps the last status it was sent. In batches, and on SQLite with the WAL emptied afterwards.
 */
export async function eraseWorker(
  store: Store,
  input: { workerUuid: string; by: string; now: number },
  pacing: BatchPacing = pacingFor(store.dialect),
): Promise<WorkerErasure> {
  const taskIds = await workerTaskIds(store.db, input.workerUuid);
  const undelivered = await countUndelivered(store.db, taskIds);
  const limit = batchRows(store.dialect);
  let deleted = 0;
  for (let start = 0; start < taskIds.length; start += limit) {
    const chunk = taskIds.slice(start, start + limit);
    deleted += await inBatches(() => eraseTasksStep(store.db, chunk, limit), pacing);
  }
  const idempotencyAnswers = await eraseIdempotencyAnswersNaming(store.db, input.workerUuid);
  await recordErasure(store.db, { by: input.by, at: input.now });
  return { tasks: taskIds.length, rows: deleted - taskIds.length, undelivered, idempotencyAnswers, walTruncated: await truncateWal(store) };
}

/** A server writing beside the command may keep the WAL busy for a moment: a few tries before reporting it. */
async function truncateWal(store: Store): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await store.truncateWal()) return true;
    await pause(200);
  }
  return false;
}
