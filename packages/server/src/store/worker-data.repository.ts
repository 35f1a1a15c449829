import { sql } from 'kysely';
import type { StoreDb } from './database-schema.ts';
import { toOutboxUpdate, type OutboxUpdate } from './outbox.table.ts';
import { deleteAnswersAboutTasks, listAnswersAboutTasks } from './partner-idempotency.repository.ts';
import { maskSealed } from '../sensitive/sensitive-values.ts';
import { eraseInTransaction } from './secure-erasure.ts';
import { deleteOffersOf } from './task-offers.repository.ts';
import { claimUploadsOfTasks, listUploadsOfTasks, type StoredUpload } from './upload-removals.repository.ts';
import { recordRemovals } from './task-changes.repository.ts';
import { toTaskHistoryEntry } from './task-history.table.ts';
import { toTask } from './tasks.table.ts';

/*
 * Everything stored about one worker, found by their UUID in any letter case (the index tasks_worker), for
 * `npm run tasks -- export` and `erase` (docs/operations.md#export-and-erasure).
 */

const ofWorker = (workerUuid: string) => sql<boolean>`lower(worker_uuid) = ${workerUuid.toLowerCase()}`;

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** One delivery: a platform update or a partner event, its payload as stored and what became of it. */
function deliveryOf(row: OutboxUpdate) {
  return {
    id: row.id,
    state: row.state,
    payload: row.payload,
    attempts: row.attempts,
    createdAt: iso(row.createdAt),
    deliveredAt: iso(row.deliveredAt),
    deadAt: iso(row.deadAt),
    deadReason: row.deadReason,
    lastError: row.lastError,
  };
}

/**
 * One upload of the task, without its bytes: `file` names where `export --out` wrote them beside the JSON, null when
 * they were not written (no --out, or an upload still being sent).
 */
function uploadOf(upload: StoredUpload) {
  return {
    id: upload.id,
    attempt: upload.attempt,
    stepId: upload.stepId,
    field: upload.field,
    state: upload.state,
    contentType: upload.contentType,
    bytes: upload.bytes,
    sha256: upload.sha256,
    createdAt: iso(upload.createdAt),
    completedAt: iso(upload.completedAt),
    savedAt: iso(upload.savedAt),
    file: null as string | null,
  };
}

export type WorkerExport = Awaited<ReturnType<typeof exportWorkerData>>;

/**
 * The worker's tasks, oldest first, each with its context, step data, history, updates and events, the partner API's
 * answers stored about it (kept 24 hours for their Idempotency-Key; the answers to a step hold the task's view), and
 * the files uploaded for it, of every attempt, described (their bytes are the store's: upload-export.ts writes them).
 */
export async function exportWorkerData(
  db: StoreDb,
  workerUuid: string,
  /** Opens a task's sealed values (`export --reveal-sensitive`); without it they are masked. */
  reveal?: (task: { assignedTaskUuid: string; stepData: Record<string, unknown> }) => Promise<Record<string, unknown>>,
) {
  const rows = await db.selectFrom('tasks').selectAll().where(ofWorker(workerUuid)).orderBy('created_at').orderBy('id').execute();
  const tasks = [];
  for (const row of rows) {
    const task = toTask(row);
    const history = await db.selectFrom('task_history').selectAll().where('task_id', '=', task.id).orderBy('id').execute();
    const outbox = (await db.selectFrom('outbox').selectAll().where('task_id', '=', task.id).orderBy('id').execute()).map(toOutboxUpdate);
    const partnerApiAnswers = await listAnswersAboutTasks(db, [row.assigned_task_key]);
    const uploads = await listUploadsOfTasks(db, [task.id]);
    tasks.push({
      taskId: task.id,
      context: {
        wxWorkerUuid: task.workerUuid,
        wxAssignedTaskUuid: task.assignedTaskUuid,
        wxTaskFlowUuid: task.taskFlowUuid,
        wxCompanyUuid: task.companyUuid,
      },
      workflowId: task.workflowId,
      status: task.status,
      attempt: task.attempt,
      currentStep: task.currentStep,
      // Sensitive values masked unless asked for (docs/connecting-your-backend.md#sensitive-values): an export is a file that travels.
      stepData: reveal === undefined ? maskSealed(task.stepData) : await reveal(task),
      failedReason: task.failedReason,
      rejectedReason: row.rejected_reason,
      /** A hash of the address that opened the task: the address itself is not kept. */
      openedFromHash: row.opened_from,
      createdAt: iso(task.createdAt),
      updatedAt: iso(task.updatedAt),
      attemptStartedAt: iso(task.attemptStartedAt),
      confirmedAt: iso(task.confirmedAt),
      rejectedAt: iso(task.rejectedAt),
      answersErasedAt: iso(row.answers_erased_at),
      history: history.map(toTaskHistoryEntry).map((entry) => ({
        attempt: entry.attempt,
        kind: entry.kind,
        stepId: entry.stepId,
        detail: entry.detail,
        at: iso(entry.at),
      })),
      updates: outbox.filter((update) => update.lane === 'platform').map(deliveryOf),
      events: outbox.filter((update) => update.lane === 'partner').map(deliveryOf),
      partnerApiAnswers: partnerApiAnswers.map((answer) => ({
        status: answer.status,
        body: answer.body,
        createdAt: iso(answer.createdAt),
      })),
      uploads: uploads.map(uploadOf),
    });
  }
  return { worker: workerUuid, tasks };
}

/** The ids of the worker's tasks. */
export async function workerTaskIds(db: StoreDb, workerUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('tasks').select('id').where(ofWorker(workerUuid)).execute();
  return rows.map((row) => row.id);
}

/** The keys of the worker's tasks (`assigned_task_key`), which the partner API's stored answers name. */
export async function workerTaskKeys(db: StoreDb, workerUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('tasks').select('assigned_task_key').where(ofWorker(workerUuid)).execute();
  return rows.map((row) => row.assigned_task_key);
}

/** What of these tasks is not delivered: waiting, per lane, and dead letters of both lanes; what an erasure drops. */
export async function countUndelivered(
  db: StoreDb,
  taskIds: readonly string[],
): Promise<{ platform: number; partner: number; dead: number }> {
  if (taskIds.length === 0) return { platform: 0, partner: 0, dead: 0 };
  const rows = await db
    .selectFrom('outbox')
    .select((eb) => ['lane', 'state', eb.fn.countAll<number>().as('count')])
    .where('task_id', 'in', taskIds)
    .where('state', 'in', ['pending', 'dead'])
    .groupBy(['lane', 'state'])
    .execute();
  const of = (state: string, lane?: string) =>
    rows.filter((row) => row.state === state && (lane === undefined || row.lane === lane)).reduce((sum, row) => sum + Number(row.count), 0);
  return { platform: of('pending', 'platform'), partner: of('pending', 'partner'), dead: of('dead') };
}

/**
 * One step of an erasure, in its own short transaction: up to `limit` outbox rows of these tasks, else up to `limit`
 * history entries, else up to `limit` of the tasks themselves (the foreign keys would cascade, but in one statement
 * of unbounded size). Returns the rows deleted, 0 once nothing of them is left.
 */
export function eraseTasksStep(db: StoreDb, taskIds: readonly string[], limit: number, now: number): Promise<number> {
  if (taskIds.length === 0) return Promise.resolve(0);
  return eraseInTransaction(db, async (trx) => {
    for (const table of ['outbox', 'task_history'] as const) {
      const result = await trx
        .deleteFrom(table)
        .where('id', 'in', (eb) => eb.selectFrom(table).select('id').where('task_id', 'in', taskIds).limit(limit))
        .executeTakeFirst();
      if (result.numDeletedRows > 0n) return Number(result.numDeletedRows);
    }
    const doomed = taskIds.slice(0, limit);
    // The partner's backend hears of the erasure in the changes feed, by ids only, and drops its copy.
    await recordRemovals(trx, { taskIds: doomed, reason: 'erased', now });
    await deleteOffersOf(trx, doomed);
    // An upload begun since eraseWorker removed the files goes with its task (docs/operations.md#files).
    await claimUploadsOfTasks(trx, doomed);
    const result = await trx.deleteFrom('tasks').where('id', 'in', doomed).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

/**
 * One step of an erasure: up to `limit` of the partner API's answers stored about these tasks (keys as
 * `assigned_task_key`, at most TASK_KEYS_PER_STATEMENT), which repeat the tasks' context and step data, in its own
 * short transaction. Returns how many, 0 once none is left.
 */
export function eraseAnswersAboutTasksStep(db: StoreDb, taskKeys: readonly string[], limit: number): Promise<number> {
  if (taskKeys.length === 0) return Promise.resolve(0);
  return eraseInTransaction(db, (trx) => deleteAnswersAboutTasks(trx, taskKeys, limit));
}

/** Who erased a worker's data and when; never whose, nor what. */
export async function recordErasure(db: StoreDb, input: { by: string; at: number }): Promise<void> {
  await db.insertInto('erasure_log').values({ erased_at: input.at, erased_by: input.by }).execute();
}
