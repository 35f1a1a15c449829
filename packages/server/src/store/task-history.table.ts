import type { ColumnType, Generated, Selectable } from 'kysely';
import { LEGACY_GRADED_STEP_FAILED_KIND } from './migrations/0022-graded-step-failed.ts';

/**
 * What happened to a task, for the audit trail the page and the preview portal show. `graded_step_failed`: a try of a
 * graded step below its pass mark, its score in `detail`.
 */
export type TaskHistoryKind =
  'opened' | 'started' | 'step_saved' | 'went_back' | 'graded_step_failed' | 'completed' | 'failed' | 'restarted';

export interface TaskHistoryTable {
  id: Generated<number>;
  task_id: string;
  attempt: number;
  /** Read, it may be the kind an earlier release writes during a rolling upgrade; written, only this release's. */
  kind: ColumnType<TaskHistoryKind | typeof LEGACY_GRADED_STEP_FAILED_KIND, TaskHistoryKind, TaskHistoryKind>;
  step_id: string | null;
  /** JSON object or null. */
  detail: string | null;
  at: number;
}

export type TaskHistoryRow = Selectable<TaskHistoryTable>;

export interface TaskHistoryEntry {
  id: number;
  taskId: string;
  attempt: number;
  kind: TaskHistoryKind;
  stepId: string | null;
  detail: Record<string, unknown> | null;
  at: number;
}

/** An entry as a transaction knows it before it is written (no id yet): what the page's view is built from. */
export type TaskHistoryFact = Omit<TaskHistoryEntry, 'id' | 'taskId'>;

export function toTaskHistoryEntry(row: TaskHistoryRow): TaskHistoryEntry {
  return {
    id: row.id,
    taskId: row.task_id,
    attempt: row.attempt,
    kind: row.kind === LEGACY_GRADED_STEP_FAILED_KIND ? 'graded_step_failed' : row.kind,
    stepId: row.step_id,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
    at: row.at,
  };
}
