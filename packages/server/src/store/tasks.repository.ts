import { randomUUID } from 'node:crypto';
import type { StoreDb } from './database-schema.ts';
import { taskRowColumns, toTask, type NewTaskRow, type Task, type TaskRow } from './tasks.table.ts';
import { compileOnce } from './compiled-query.ts';
import { deleteAnswersAboutTasks, TASK_KEYS_PER_STATEMENT } from './partner-idempotency.repository.ts';
import { changeMarkerColumns, recordRemovals } from './task-changes.repository.ts';
import { deleteOffersOf } from './task-offers.repository.ts';
import { claimUploadsOfTasks } from './upload-removals.repository.ts';
import { canonicalUuid } from '@partner-task-kit/workflow/contract';

export interface NewTask {
  /** Defaults to a random UUID; it becomes the `partnerId` of every update (docs/platform.md#partner-task-update-record). */
  id?: string;
  assignedTaskUuid: string;
  workerUuid: string;
  taskFlowUuid: string;
  companyUuid: string;
  workflowId: string;
  now: number;
  /** A hash of the address that opened it, for the creation limits. */
  openedFrom?: string;
}

/** What a task service may change. */
export type TaskChanges = Partial<Pick<Task, 'status' | 'attempt' | 'currentStep' | 'stepData' | 'attemptStartedAt' | 'failedReason'>>;

function newTaskRow(input: NewTask): NewTaskRow {
  return {
    id: input.id ?? randomUUID(),
    assigned_task_uuid: input.assignedTaskUuid,
    assigned_task_key: canonicalUuid(input.assignedTaskUuid),
    worker_uuid: input.workerUuid,
    task_flow_uuid: input.taskFlowUuid,
    // Lower case, as tenants and the outbox keep it: the creation budget counts a company whatever the case it came in.
    company_uuid: canonicalUuid(input.companyUuid),
    workflow_id: input.workflowId,
    status: 'ready',
    attempt: 1,
    current_step: null,
    step_data: '{}',
    attempt_started_at: null,
    failed_reason: null,
    rejected_at: null,
    rejected_reason: null,
    confirmed_at: null,
    opened_from: input.openedFrom ?? null,
    created_at: input.now,
    updated_at: input.now,
  };
}

/**
 * Creates the task of an assigned task unless it exists. Two first requests for one assigned task (two tabs, a retry,
 * the id in another letter case) race here; the unique canonical key decides, and both callers get the same task.
 */
export async function insertTaskIfAbsent(db: StoreDb, input: NewTask): Promise<{ task: Task; created: boolean }> {
  const inserted = await db
    .insertInto('tasks')
    .values({ ...newTaskRow(input), ...changeMarkerColumns(db) })
    .onConflict((oc) => oc.column('assigned_task_key').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { task: toTask(inserted), created: true };
  const existing = await findTaskByAssignedTaskUuid(db, input.assignedTaskUuid);
  if (!existing) throw new Error(`task of assigned task ${input.assignedTaskUuid} vanished during its creation`);
  return { task: existing, created: false };
}

/**
 * Forgets a task (its row, history, outbox rows and the partner API's answers stored about it), so the next session
 * for its id binds anew. Undelivered updates of the old binding are dropped with it: they reported another context's
 * work; the stored answers repeat its step data, and a key sent again is answered for the new binding. Its uploads are
 * claimed for removal (docs/operations.md#files): the caller removes their bytes. Returns what was bound, or undefined.
 */
export function releaseTask(
  db: StoreDb,
  assignedTaskUuid: string,
  now: number,
): Promise<{ taskId: string; workerUuid: string; companyUuid: string; dropped: number } | undefined> {
  return db.transaction().execute(async (trx) => {
    const task = await trx
      .selectFrom('tasks')
      .selectAll()
      .where('assigned_task_key', '=', canonicalUuid(assignedTaskUuid))
      .forUpdate()
      .executeTakeFirst();
    if (!task) return undefined;
    await recordRemovals(trx, { taskIds: [task.id], reason: 'released', now });
    await deleteOffersOf(trx, [task.id]);
    await claimUploadsOfTasks(trx, [task.id]);
    const pending = await trx.deleteFrom('outbox').where('task_id', '=', task.id).where('state', '=', 'pending').executeTakeFirst();
    await trx.deleteFrom('outbox').where('task_id', '=', task.id).execute();
    await trx.deleteFrom('task_history').where('task_id', '=', task.id).execute();
    await deleteAnswersAboutTasks(trx, [task.assigned_task_key]);
    await trx.deleteFrom('tasks').where('id', '=', task.id).execute();
    return { taskId: task.id, workerUuid: task.worker_uuid, companyUuid: task.company_uuid, dropped: Number(pending.numDeletedRows) };
  });
}

/**
 * Forgets tasks that cost rows and confirm nothing: rejected by the platform before `before`, or created before it
 * with no update ever delivered and none still waiting (every one a dead letter). A task with an update delivered or
 * pending is kept, whatever its age. Their uploads are claimed for removal (docs/operations.md#files): the caller
 * removes their bytes. Returns how many tasks went.
 */
export function purgeUnconfirmedTasks(db: StoreDb, before: number, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const doomed = await trx
      .selectFrom('tasks as t')
      .select(['t.id', 't.assigned_task_key'])
      .where((eb) =>
        eb.or([
          eb('t.rejected_at', '<', before),
          eb.and([
            eb('t.created_at', '<', before),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('outbox as o')
                  .select('o.id')
                  .whereRef('o.task_id', '=', 't.id')
                  .where('o.state', 'in', ['delivered', 'pending']),
              ),
            ),
          ]),
        ]),
      )
      .limit(PURGE_BATCH)
      .execute();
    const ids = doomed.map((row) => row.id);
    if (ids.length === 0) return 0;
    await recordRemovals(trx, { taskIds: ids, reason: 'purged', now });
    await deleteOffersOf(trx, ids);
    await claimUploadsOfTasks(trx, ids);
    await trx.deleteFrom('outbox').where('task_id', 'in', ids).execute();
    await trx.deleteFrom('task_history').where('task_id', 'in', ids).execute();
    // The partner API's answers about them too, so a new binding of the same id shows none of this one's.
    for (let start = 0; start < doomed.length; start += TASK_KEYS_PER_STATEMENT) {
      const keys = doomed.slice(start, start + TASK_KEYS_PER_STATEMENT).map((row) => row.assigned_task_key);
      await deleteAnswersAboutTasks(trx, keys);
    }
    await trx.deleteFrom('tasks').where('id', 'in', ids).execute();
    return ids.length;
  });
}

/** At most this many tasks per purge transaction: a long backlog is worked through in short steps. */
const PURGE_BATCH = 500;

/** How much of a creation budget is used in a window: the tasks counted, and when the oldest of them was created. */
export interface BudgetUse {
  count: number;
  /** When the oldest counted task was created (its place in the window frees first); null when none is counted. */
  oldestAt: number | null;
}

/**
 * The creation limits' counts since `since`: every task one address (hash) opened, and the tasks of one company that
 * the platform confirmed. Only confirmed tasks use a company's budget: anyone can invent task ids for a company (the
 * context is not signed, docs/platform.md#task-context), and invented ones, never confirmed, must not use up what its real workers need.
 */
export async function countTasksCreatedSince(
  db: StoreDb,
  input: { openedFrom: string; companyUuid: string; since: number },
): Promise<{ byAddress: BudgetUse; byCompany: BudgetUse }> {
  const use = async (rows: Promise<{ n: number | string; oldest: number | string | null } | undefined>): Promise<BudgetUse> => {
    const row = await rows;
    return { count: Number(row?.n ?? 0), oldestAt: row?.oldest == null ? null : Number(row.oldest) };
  };
  const [byAddress, byCompany] = await Promise.all([
    use(
      db
        .selectFrom('tasks')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('opened_from', '=', input.openedFrom)
        .where('created_at', '>=', input.since)
        .executeTakeFirst(),
    ),
    use(
      db
        .selectFrom('tasks')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('company_uuid', '=', canonicalUuid(input.companyUuid))
        .where('created_at', '>=', input.since)
        .where('confirmed_at', 'is not', null)
        .executeTakeFirst(),
    ),
  ]);
  return { byAddress, byCompany };
}

/** The platform accepted an update of these tasks: each is its own from now on (kept from the first time). */
export async function confirmTasks(db: StoreDb, taskIds: readonly string[], now: number): Promise<void> {
  if (taskIds.length === 0) return;
  await db.updateTable('tasks').set({ confirmed_at: now }).where('id', 'in', taskIds).where('confirmed_at', 'is', null).execute();
}

/** Whether the platform ever accepted an update of the task. */
export async function isTaskConfirmed(db: StoreDb, taskId: string): Promise<boolean> {
  const row = await db.selectFrom('tasks').select('confirmed_at').where('id', '=', taskId).executeTakeFirst();
  return row?.confirmed_at != null;
}

/**
 * When the platform last confirmed a task of these companies (undefined: any company): evidence that the credential
 * behind them works, which a restarted server reads once instead of starting with none.
 */
export async function lastConfirmationAt(db: StoreDb, companies: readonly string[] | undefined): Promise<number | null> {
  if (companies !== undefined && companies.length === 0) return null;
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.max('confirmed_at').as('at'))
    .$if(companies !== undefined, (qb) => qb.where('company_uuid', 'in', companies!))
    .executeTakeFirst();
  return row?.at == null ? null : Number(row.at);
}

export async function findTaskById(db: StoreDb, id: string): Promise<Task | undefined> {
  const row = await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toTask(row);
}

export async function findTaskByAssignedTaskUuid(db: StoreDb, assignedTaskUuid: string): Promise<Task | undefined> {
  const row = await db.selectFrom('tasks').selectAll().where('assigned_task_key', '=', canonicalUuid(assignedTaskUuid)).executeTakeFirst();
  return row && toTask(row);
}

/**
 * Reads a task, found by the platform's assigned task UUID as a session names it, for a read-modify-write inside the
 * caller's transaction. On Postgres the row stays locked until the transaction ends, so two requests for one task (a
 * double click) apply one after the other instead of losing one; on SQLite the write transaction already excludes
 * every other writer.
 */
export async function lockTaskByAssignedTaskUuid(db: StoreDb, assignedTaskUuid: string): Promise<Task | undefined> {
  const { rows } = await lockByAssignedTaskUuid(db, { assignedTaskKey: canonicalUuid(assignedTaskUuid) });
  return rows[0] && toTask(rows[0]);
}

const lockByAssignedTaskUuid = compileOnce<{ assignedTaskKey: string }, TaskRow>((db, param) =>
  db.selectFrom('tasks').select(taskRowColumns).where('assigned_task_key', '=', param('assignedTaskKey')).forUpdate(),
);

/**
 * Writes `changes` to a task the caller holds locked (read in this transaction by lockTaskByAssignedTaskUuid) and
 * returns it as now stored, without reading it back. Every changeable column is written each time, so the statement
 * has one shape and is compiled once (the step path's write).
 */
export async function saveLockedTask(db: StoreDb, task: Task, changes: TaskChanges, now: number): Promise<Task> {
  const saved: Task = { ...task, ...changes, updatedAt: now };
  await saveTaskColumns(db, {
    id: saved.id,
    status: saved.status,
    attempt: saved.attempt,
    currentStep: saved.currentStep,
    stepData: JSON.stringify(saved.stepData),
    attemptStartedAt: saved.attemptStartedAt,
    failedReason: saved.failedReason,
    updatedAt: now,
  });
  return saved;
}

const saveTaskColumns = compileOnce<
  {
    id: string;
    status: Task['status'];
    attempt: number;
    currentStep: string | null;
    stepData: string;
    attemptStartedAt: number | null;
    failedReason: string | null;
    updatedAt: number;
  },
  never
>((db, param) =>
  db
    .updateTable('tasks')
    .set({
      status: param('status'),
      attempt: param('attempt'),
      current_step: param('currentStep'),
      step_data: param('stepData'),
      attempt_started_at: param('attemptStartedAt'),
      failed_reason: param('failedReason'),
      updated_at: param('updatedAt'),
      // The changes feed of the partner API: every write moves the task past every reader's cursor.
      ...changeMarkerColumns(db),
    })
    .where('id', '=', param('id')),
);
