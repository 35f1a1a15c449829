import { describe, expect, it } from 'vitest';
import type { TaskHistoryKind } from '@partner-task-kit/server/store/task-history.table';
import { taskViewSchema, type TaskView } from '@partner-task-kit/workflow/contract';
import { readyTaskView } from '@partner-task-kit/testing';

// The history of the task view (docs/api.md#the-task): the page parses it with the contract's schema, so every kind
// the server records must be one the schema reads.

/** Every kind the server records, once: a kind added to the server and not listed here fails the type check. */
const recordedKinds = {
  opened: true,
  started: true,
  step_saved: true,
  went_back: true,
  graded_step_failed: true,
  completed: true,
  failed: true,
  restarted: true,
} satisfies Record<TaskHistoryKind, true>;

const withHistory = (kind: string): unknown => ({
  ...readyTaskView,
  history: [{ kind, attempt: 1, stepId: 'graded-step', at: '2026-03-01T09:05:00.000Z' }],
});

describe('the history of the task view', () => {
  it.each(Object.keys(recordedKinds))('reads the kind %s that the server records', (kind) => {
    const parsed: TaskView = taskViewSchema.parse(withHistory(kind));
    expect(parsed.history.map((entry) => entry.kind)).toEqual([kind]);
  });

  it('names a failed try of a graded step graded_step_failed, and reads no kind it does not list', () => {
    expect(taskViewSchema.safeParse(withHistory('graded_step_failed')).success).toBe(true);
    expect(taskViewSchema.safeParse(withHistory('quiz_failed')).success).toBe(false);
    expect(taskViewSchema.safeParse(withHistory('something_else')).success).toBe(false);
  });
});
