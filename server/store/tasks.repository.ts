import { randomUUID } from 'node:crypto';
import type { StoreDb } from './database-schema';
import { toTask } from './tasks.table';
import type { NewTaskRow, Task, TaskRowUpdate } from './tasks.table';

export interface NewTask {
  /** Defaults to a random UUID; it becomes the `partnerId` of every update (spec 2.6). */
  id?: string;
  assignedTaskUuid: string;
  workerUuid: string;
  taskFlowUuid: string;
  companyUuid: string;
  workflowId: string;
  now: number;
}

/** What a task service may change. */
export type TaskChanges = Partial<Pick<Task, 'status' | 'attempt' | 'currentStep' | 'stepData' | 'attemptStartedAt' | 'failedReason'>>;

function newTaskRow(input: NewTask): NewTaskRow {
  return {
    id: input.id ?? randomUUID(),
    assigned_task_uuid: input.assignedTaskUuid,
    worker_uuid: input.workerUuid,
    task_flow_uuid: input.taskFlowUuid,
    company_uuid: input.companyUuid,
    workflow_id: input.workflowId,
    status: 'ready',
    attempt: 1,
    current_step: null,
    step_data: '{}',
    attempt_started_at: null,
    failed_reason: null,
    rejected_at: null,
    rejected_reason: null,
    created_at: input.now,
    updated_at: input.now,
  };
}

export async function insertTask(db: StoreDb, input: NewTask): Promise<Task> {
  const row = await db.insertInto('tasks').values(newTaskRow(input)).returningAll().executeTakeFirstOrThrow();
  return toTask(row);
}

/**
 * Creates the task of an assigned task unless it exists. Two first requests for one assigned task (two tabs, a retry)
 * race here; the unique key decides, and both callers get the same task.
 */
export async function insertTaskIfAbsent(db: StoreDb, input: NewTask): Promise<{ task: Task; created: boolean }> {
  const inserted = await db
    .insertInto('tasks')
    .values(newTaskRow(input))
    .onConflict((oc) => oc.column('assigned_task_uuid').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { task: toTask(inserted), created: true };
  const existing = await findTaskByAssignedTaskUuid(db, input.assignedTaskUuid);
  if (!existing) throw new Error(`task of assigned task ${input.assignedTaskUuid} vanished during its creation`);
  return { task: existing, created: false };
}

export async function findTaskById(db: StoreDb, id: string): Promise<Task | undefined> {
  const row = await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toTask(row);
}

export async function findTaskByAssignedTaskUuid(db: StoreDb, assignedTaskUuid: string): Promise<Task | undefined> {
  const row = await db.selectFrom('tasks').selectAll().where('assigned_task_uuid', '=', assignedTaskUuid).executeTakeFirst();
  return row && toTask(row);
}

/**
 * Reads a task, found by the platform's assigned task UUID as a session names it, for a read-modify-write inside the
 * caller's transaction. On Postgres the row stays locked until the transaction ends, so two requests for one task (a
 * double click) apply one after the other instead of losing one; on SQLite the write transaction already excludes
 * every other writer.
 */
export async function lockTaskByAssignedTaskUuid(db: StoreDb, assignedTaskUuid: string): Promise<Task | undefined> {
  const row = await db.selectFrom('tasks').selectAll().where('assigned_task_uuid', '=', assignedTaskUuid).forUpdate().executeTakeFirst();
  return row && toTask(row);
}

export async function updateTask(db: StoreDb, id: string, changes: TaskChanges, now: number): Promise<Task | undefined> {
  const row = await db.updateTable('tasks').set(toRowUpdate(changes, now)).where('id', '=', id).returningAll().executeTakeFirst();
  return row && toTask(row);
}

function toRowUpdate(changes: TaskChanges, now: number): TaskRowUpdate {
  const update: TaskRowUpdate = { updated_at: now };
  if (changes.status !== undefined) update.status = changes.status;
  if (changes.attempt !== undefined) update.attempt = changes.attempt;
  if (changes.currentStep !== undefined) update.current_step = changes.currentStep;
  if (changes.stepData !== undefined) update.step_data = JSON.stringify(changes.stepData);
  if (changes.attemptStartedAt !== undefined) update.attempt_started_at = changes.attemptStartedAt;
  if (changes.failedReason !== undefined) update.failed_reason = changes.failedReason;
  return update;
}
