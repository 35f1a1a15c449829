import type { StoreDb } from './database-schema.ts';
import { compileOnce } from './compiled-query.ts';
import { toTaskHistoryEntry, type TaskHistoryEntry, type TaskHistoryKind, type TaskHistoryRow } from './task-history.table.ts';

export interface NewTaskHistoryEntry {
  taskId: string;
  attempt: number;
  kind: TaskHistoryKind;
  stepId?: string | null;
  detail?: Record<string, unknown> | null;
  at: number;
}

export async function appendHistory(db: StoreDb, entry: NewTaskHistoryEntry): Promise<TaskHistoryEntry> {
  const stepId = entry.stepId ?? null;
  const detail = entry.detail ?? null;
  const { rows } = await insertHistory(db, {
    taskId: entry.taskId,
    attempt: entry.attempt,
    kind: entry.kind,
    stepId,
    detail: detail === null ? null : JSON.stringify(detail),
    at: entry.at,
  });
  const inserted = rows[0];
  if (!inserted) throw new Error(`no history row was written for task ${entry.taskId}`);
  return { id: inserted.id, taskId: entry.taskId, attempt: entry.attempt, kind: entry.kind, stepId, detail, at: entry.at };
}

const insertHistory = compileOnce<
  { taskId: string; attempt: number; kind: TaskHistoryKind; stepId: string | null; detail: string | null; at: number },
  { id: number }
>((db, param) =>
  db
    .insertInto('task_history')
    .values({
      task_id: param('taskId'),
      attempt: param('attempt'),
      kind: param('kind'),
      step_id: param('stepId'),
      detail: param('detail'),
      at: param('at'),
    })
    .returning('id'),
);

/** Oldest first: insertion order, which the clock cannot reorder. */
export async function listHistory(db: StoreDb, taskId: string): Promise<TaskHistoryEntry[]> {
  const rows = await db.selectFrom('task_history').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
  return rows.map(toTaskHistoryEntry);
}

/** One attempt's entries, oldest first: what the page is shown, read on every step (so compiled once). */
export async function listAttemptHistory(db: StoreDb, taskId: string, attempt: number): Promise<TaskHistoryEntry[]> {
  const { rows } = await selectAttemptHistory(db, { taskId, attempt });
  return rows.map(toTaskHistoryEntry);
}

const selectAttemptHistory = compileOnce<{ taskId: string; attempt: number }, TaskHistoryRow>((db, param) =>
  db
    .selectFrom('task_history')
    // Named, not `*`: prepared on Postgres (tasks.table.ts, taskRowColumns, says why).
    .select(['id', 'task_id', 'attempt', 'kind', 'step_id', 'detail', 'at'])
    .where('task_id', '=', param('taskId'))
    .where('attempt', '=', param('attempt'))
    .orderBy('id'),
);
