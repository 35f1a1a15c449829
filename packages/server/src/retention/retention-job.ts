import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { pruneDeliveredWindow } from '../store/outbox-retention.repository.ts';
import { outboxLanes } from '../store/outbox.table.ts';
import { deleteExpiredIdempotencyRecords, IDEMPOTENCY_KEPT_MS } from '../store/partner-idempotency.repository.ts';
import type { Store } from '../store/store.ts';
import { eraseAnswersOfFinishedTasks } from '../store/task-answers.repository.ts';
import { purgeRemovals, REMOVALS_KEPT_MS } from '../store/task-changes.repository.ts';
import { deletePendingSeenBefore } from '../store/tenants.repository.ts';
import type { UploadFiles } from '../uploads/upload-files.ts';
import { claimForgottenUploads, removeClaimedUploads } from '../uploads/upload-removal.ts';
import { batchRows, inBatches, pacingFor, pauseAfter, type BatchPacing } from './batches.ts';

/** Finished tasks whose answers are erased per transaction: each brings its history and outbox rows, some tens. */
const TASKS_PER_BATCH = 20;

/**
 * A company refused for lack of a credential leaves the pending list 30 days after its last refusal
 * (docs/operations.md#tenants): as long as a delivered update is kept by default (OUTBOX_RETENTION_DAYS), long enough
 * for an operator to see who asked, and an invented id is gone within a month.
 */
const PENDING_COMPANY_RETENTION_MS = 30 * 24 * 60 * 60_000;

export interface RetentionOutcome {
  /** The partner API's answers stored for an Idempotency-Key, deleted past their 24 hours. */
  idempotencyAnswers: number;
  /** Delivered outbox rows deleted, both lanes. */
  outboxRows: number;
  /** Finished tasks whose answers were erased. */
  tasksErased: number;
  /**
   * Uploads removed, bytes and rows: those of the tasks whose answers were erased, those no saved step named a day
   * after their creation, and those an erasure, a release or a purge left claimed (docs/operations.md#files).
   */
  files: number;
  /** Why the upload store failed to remove a file, if it did: those left wait claimed for the next run. */
  filesFailure?: unknown;
  /** False when answers were erased but the SQLite WAL could not be emptied yet (the next run tries again). */
  walTruncated: boolean;
}

/**
 * One run of docs/operations.md#retention: the partner API's stored answers past their 24 hours, delivered outbox rows
 * past OUTBOX_RETENTION_DAYS, then, with TASK_DATA_RETENTION_DAYS, the answers of tasks finished before it, with their
 * files; the uploads no saved step named after a day. Dead letters and undelivered rows stay.
 */
export async function runRetention(
  store: Store,
  input: { now: number; retention: Config['retention']; uploadFiles: UploadFiles; walOwed?: boolean },
  pacing: BatchPacing = pacingFor(store.dialect),
): Promise<RetentionOutcome> {
  const { now, retention } = input;
  const limit = batchRows(store.dialect);
  // First, so that none outlives the answers of a task erased below: an answer's record is claimed before its step
  // writes the task, and TASK_DATA_RETENTION_DAYS is a day at least.
  const idempotencyAnswers = await inBatches(
    () => deleteExpiredIdempotencyRecords(store.db, { before: now - IDEMPOTENCY_KEPT_MS, limit }),
    pacing,
  );
  let outboxRows = 0;
  for (const lane of outboxLanes) {
    let afterId = 0;
    for (let done = false; !done && !pacing.stopped?.();) {
      const started = performance.now();
      const window = await pruneDeliveredWindow(store.db, { lane, before: now - retention.outboxMs, afterId, limit });
      ({ done } = window);
      afterId = window.lastId;
      outboxRows += window.deleted;
      // A window of kept rows (each task's newest update) only read: the next comes after the requests waiting now.
      if (!done) await (window.deleted > 0 ? pauseAfter(started, pacing) : new Promise((resolve) => setImmediate(resolve)));
    }
  }
  let tasksErased = 0;
  let walTruncated = true;
  if (retention.taskDataMs !== undefined) {
    const finishedBefore = now - retention.taskDataMs;
    tasksErased = await inBatches(() => eraseAnswersOfFinishedTasks(store.db, { finishedBefore, now, limit: TASKS_PER_BATCH }), pacing);
  }
  // The changes feed's removals are ids only; a partner that syncs less often than they are kept starts over.
  await inBatches(() => purgeRemovals(store.db, { before: now - REMOVALS_KEPT_MS, limit }), pacing);
  const lastSeenBefore = now - PENDING_COMPANY_RETENTION_MS;
  await inBatches(() => deletePendingSeenBefore(store.db, { lastSeenBefore, limit }), pacing);
  // The erased tasks' files were claimed with their answers; those of a removal cut short by a crash wait claimed too.
  await claimForgottenUploads(store, { now, limit }, pacing);
  let files = 0;
  let filesFailure: unknown;
  // A store that does not answer (S3 away) must not keep the WAL from being emptied of the answers erased above.
  await removeClaimedUploads(store, input.uploadFiles, {}, pacing, (removed) => (files += removed)).catch((error: unknown) => {
    filesFailure = error;
  });
  // The erased values are still in the WAL's older frames until it is copied back and cut (SQLite).
  if (tasksErased > 0 || files > 0 || input.walOwed === true) walTruncated = await store.truncateWal();
  return { idempotencyAnswers, outboxRows, tasksErased, files, ...(filesFailure === undefined ? {} : { filesFailure }), walTruncated };
}

/**
 * Runs the retention at start, then every `everyMs` (an hour), like the purge of unconfirmed tasks; a run still
 * going when the next is due is not doubled. `stop` ends the walk between two batches and waits for it.
 */
export function startRetention(deps: {
  store: Store;
  clock: Clock;
  log: Logger;
  retention: Config['retention'];
  uploadFiles: UploadFiles;
  everyMs?: number;
}): {
  stop(): Promise<void>;
} {
  const { store, clock, log, retention, uploadFiles } = deps;
  let stopped = false;
  let running: Promise<void> | undefined;
  let walOwed = false;
  const run = () => {
    if (stopped || running) return;
    const pacing = { ...pacingFor(store.dialect), stopped: () => stopped };
    running = runRetention(store, { now: clock.now(), retention, uploadFiles, walOwed }, pacing)
      .then((outcome) => {
        const { idempotencyAnswers, outboxRows, tasksErased, files } = outcome;
        if (idempotencyAnswers > 0 || outboxRows > 0 || tasksErased > 0 || files > 0) {
          log.info({ idempotencyAnswers, outboxRows, tasksErased, files }, 'retention: deleted what was past its time');
        }
        if (outcome.filesFailure !== undefined) {
          log.warn({ err: outcome.filesFailure }, 'retention: the upload store failed to remove files; the next run tries again');
        }
        walOwed = !outcome.walTruncated;
        if (walOwed) log.warn('retention: the SQLite WAL stayed busy and still holds erased answers; the next run empties it');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'retention failed; trying again at the next run'))
      .finally(() => (running = undefined));
  };
  run();
  const timer = setInterval(run, deps.everyMs ?? 60 * 60_000);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
