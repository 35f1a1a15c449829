import type { Store } from '../store/store';
import { TASK_KEYS_PER_STATEMENT } from '../store/partner-idempotency.repository';
import {
  countUndelivered,
  eraseAnswersAboutTasksStep,
  eraseTasksStep,
  recordErasure,
  workerTaskIds,
  workerTaskKeys,
} from '../store/worker-data.repository';
import { batchRows, inBatches, pacingFor, pause, type BatchPacing } from './batches';

export interface WorkerErasure {
  tasks: number;
  /** Rows of history, updates and events deleted with the tasks. */
  rows: number;
  /** Dropped with the tasks: updates to the platform and events still waiting, and dead letters of both lanes. */
  undelivered: { platform: number; partner: number; dead: number };
  /** The partner API's answers stored about the worker's tasks. */
  idempotencyAnswers: number;
  /** SQLite: the WAL was emptied, so no old frame keeps an erased value; false when it stayed busy. */
  walTruncated: boolean;
}

/**
 * Deletes everything stored about a worker (docs/operations.md#export-and-erasure): their tasks with their context,
 * step data and history, every outbox row of those tasks, delivered or not, and the partner API's answers stored
 * about those tasks; then records who erased and when. Undelivered updates go too: an outbox row cannot outlive its
 * task, so the platform keeps the last status it was sent. In batches, and on SQLite with the WAL emptied afterwards.
 */
export async function eraseWorker(
  store: Store,
  input: { workerUuid: string; by: string; now: number },
  pacing: BatchPacing = pacingFor(store.dialect),
): Promise<WorkerErasure> {
  const taskIds = await workerTaskIds(store.db, input.workerUuid);
  const taskKeys = await workerTaskKeys(store.db, input.workerUuid);
  const undelivered = await countUndelivered(store.db, taskIds);
  const limit = batchRows(store.dialect);
  let deleted = 0;
  for (let start = 0; start < taskIds.length; start += limit) {
    const chunk = taskIds.slice(start, start + limit);
    deleted += await inBatches(() => eraseTasksStep(store.db, chunk, limit, input.now), pacing);
  }
  // After the tasks: a partner API request about them claimed before this deletes with its answer, and one claimed
  // after finds no task (partner-idempotency.repository.ts, claimIdempotencyKey).
  let idempotencyAnswers = 0;
  for (let start = 0; start < taskKeys.length; start += TASK_KEYS_PER_STATEMENT) {
    const chunk = taskKeys.slice(start, start + TASK_KEYS_PER_STATEMENT);
    idempotencyAnswers += await inBatches(() => eraseAnswersAboutTasksStep(store.db, chunk, limit), pacing);
  }
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
