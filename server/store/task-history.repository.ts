import type { StoreDb } from './database-schema';
import { toTaskHistoryEntry } from './task-history.table';
import type { TaskHistoryEntry, TaskHistoryKind } from './task-history.table';

export interface NewTaskHistoryEntry {
  taskId: string;
  attempt: number;
  kind: TaskHistoryKind;
  stepId?: string | null;
  detail?: Record<string, unknown> | null;
  at: number;
}

export async function appendHistory(db: StoreDb, entry: NewTaskHistoryEntry): Promise<TaskHistoryEntry> {
  const row = await db
    .insertInto('task_history')
    .values({
      task_id: entry.taskId,
      attempt: entry.attempt,
      kind: entry.kind,
      step_id: entry.stepId ?? null,
      detail: entry.detail == null ? null : JSON.stringify(entry.detail),
      at: entry.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toTaskHistoryEntry(row);
}

/** Oldest first: insertion order, which the clock cannot reorder. */
export async function listHistory(db: StoreDb, taskId: string): Promise<TaskHistoryEntry[]> {
  const rows = await db.selectFrom('task_history').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
  return rows.map(toTaskHistoryEntry);
}
