import { inBatches, pacingFor, type BatchPacing } from '../retention/batches.ts';
import type { Store } from '../store/store.ts';
import { claimUnsavedUploads, deleteClaimedUploads, listClaimedUploads } from '../store/upload-removals.repository.ts';
import type { UploadFiles } from './upload-files.ts';

/** Files removed per batch: each is a deletion in the store (a request to S3), then one statement for their rows. */
const UPLOADS_PER_BATCH = 20;

/**
 * An upload no saved step named is removed a day after its creation, finished or not (docs/operations.md#files): long
 * enough for a worker to finish a step begun on a slow connection, short enough that a photo taken and then replaced
 * does not stay.
 */
const UNSAVED_UPLOAD_KEPT_MS = 24 * 60 * 60_000;

/**
 * Removes the uploads claimed for removal (upload-removals.repository.ts): of these tasks, or all of them. The bytes
 * go first, then the rows: a failure in between leaves claimed rows that the next run finds again. Returns how many
 * uploads were removed; a store that fails throws, with the rest still claimed.
 */
export async function removeClaimedUploads(
  store: Store,
  files: UploadFiles,
  input: {
    taskIds?: readonly string[];
    /**
     * Ends after a batch that found less than a batch's worth, rather than looking again after a pause: for claims all
     * made before the removal began (a restart's), so it does not go on to finish those another removal just made.
     */
    endAtPartialBatch?: boolean;
  },
  pacing: BatchPacing,
  /** Told of each batch removed, so a count survives a failure of a later one. */
  onRemoved?: (removed: number) => void,
): Promise<number> {
  let removed = 0;
  await inBatches(async () => {
    const ids = await listClaimedUploads(store.db, { taskIds: input.taskIds, limit: UPLOADS_PER_BATCH });
    for (const id of ids) await files.remove(id);
    // Counted by the rows this run deleted: a server finishing the same claims beside a command deletes some first.
    const deleted = await deleteClaimedUploads(store.db, ids);
    removed += deleted;
    onRemoved?.(deleted);
    return input.endAtPartialBatch && ids.length < UPLOADS_PER_BATCH ? 0 : ids.length;
  }, pacing);
  return removed;
}

/** Claims the uploads never named by a saved step and older than UNSAVED_UPLOAD_KEPT_MS, for removeClaimedUploads. */
export function claimForgottenUploads(store: Store, input: { now: number; limit: number }, pacing: BatchPacing): Promise<number> {
  return inBatches(() => claimUnsavedUploads(store.db, { createdBefore: input.now - UNSAVED_UPLOAD_KEPT_MS, limit: input.limit }), pacing);
}

/**
 * Removes, in the background, the bytes of a task's uploads claimed by a request's commit (a restart's), so the
 * request answers without waiting for the store. A failure is logged and left claimed, for the retention job to finish
 * (docs/operations.md#files). `close` stops between batches and waits for the removals under way.
 */
export function claimedUploadRemover(deps: { store: Store; files: UploadFiles; log: { warn(object: object, message: string): void } }) {
  const running = new Set<Promise<void>>();
  let closing = false;
  const pacing = { ...pacingFor(deps.store.dialect), stopped: () => closing };
  return {
    removeOf(taskId: string): void {
      if (closing) return;
      const removal = removeClaimedUploads(deps.store, deps.files, { taskIds: [taskId], endAtPartialBatch: true }, pacing).then(
        () => undefined,
        (error: unknown) =>
          deps.log.warn(
            { err: error, taskId },
            'uploads: the store failed to remove files of an earlier attempt; the retention job tries again within the hour',
          ),
      );
      running.add(removal);
      void removal.finally(() => running.delete(removal));
    },
    async close(): Promise<void> {
      closing = true;
      await Promise.all(running);
    },
  };
}
