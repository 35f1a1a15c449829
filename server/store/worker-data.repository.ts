import { sql } from 'kysely';
import type { StoreDb } from './database-schema';
import { toOutboxUpdate, type OutboxUpdate } from './outbox.table';
import { eraseInTransaction } from './secure-erasure';
import { keepChangeFloor } from './task-changes.repository';
import { toTaskHistoryEntry } from './task-history.table';
import { toTask } from './tasks.table';

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

export type WorkerExport = Awaited<ReturnType<typeof exportWorkerData>>;

/** The worker's tasks, oldest first, each with its context, step data, history, updates and events. */
export async function exportWorkerData(db: StoreDb, workerUuid: string) {
  const rows = await db.selectFrom('tasks').selectAll().where(ofWorker(workerUuid)).orderBy('created_at').orderBy('id').execute();
  const tasks = [];
  for (const row of rows) {
    const task = toTask(row);
    const history = await db.selectFrom('task_history').selectAll().where('task_id', '=', task.id).orderBy('id').execute();
    const outbox = (await db.selectFrom('outbox').selectAll().where('task_id', '=', task.id).orderBy('id').execute()).map(toOutboxUpdate);
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
      stepData: task.stepData,
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
    });
  }
  return { worker: workerUuid, tasks };
}

/** The ids of the worker's tasks. */
export async function workerTaskIds(db: StoreDb, workerUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('tasks').select('id').where(ofWorker(workerUuid)).execute();
  return rows.map((row) => row.id);
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
export function eraseTasksStep(db: StoreDb, taskIds: readonly string[], limit: number): Promise<number> {
  if (taskIds.length === 0) return Promise.resolve(0);
  return eraseInTransaction(db, async (trx) => {
    for (const table of ['outbox', 'task_history'] as const) {
      const result = await trx
        .deleteFrom(table)
        .where('id', 'in', (eb) => eb.selectFrom(table).select('id').where('task_id', 'in', taskIds).limit(limit))
        .executeTakeFirst();
      if (result.numDeletedRows > 0n) return Number(result.numDeletedRows);
    }
    await keepChangeFloor(trx);
    const result = await trx.deleteFrom('tasks').where('id', 'in', taskIds.slice(0, limit)).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

/**
 * The partner API's stored answers (kept 24 hours for its idempotency keys) that name the worker: they may repeat
 * the task's context and step data. Deleted with the erasure, by key.
 */
export async function eraseIdempotencyAnswersNaming(db: StoreDb, workerUuid: string): Promise<number> {
  const keys = await db
    .selectFrom('partner_idempotency')
    .select(['partner_key_id', 'idempotency_key'])
    .where(sql<boolean>`lower(body) like ${`%${workerUuid.toLowerCase()}%`}`)
    .execute();
  let deleted = 0;
  for (let start = 0; start < keys.length; start += 100) {
    const chunk = keys.slice(start, start + 100);
    deleted += await eraseInTransaction(db, async (trx) => {
      const result = await trx
        .deleteFrom('partner_idempotency')
        .where((eb) =>
          eb.or(
            chunk.map((key) => eb.and([eb('partner_key_id', '=', key.partner_key_id), eb('idempotency_key', '=', key.idempotency_key)])),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
  return deleted;
}

/** Who erased a worker's data and when; never whose, nor what. */
export async function recordErasure(db: StoreDb, input: { by: string; at: number }): Promise<void> {
  await db.insertInto('erasure_log').values({ erased_at: input.at, erased_by: input.by }).execute();
}
