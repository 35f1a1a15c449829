import type { PartnerEventType } from '../store/partner-events.repository.ts';
import type { TaskHistoryKind } from '../store/task-history.table.ts';

/**
 * Which history entries the partner's backend hears of. `opened`, `started` and `graded_step_failed` stay ours: the first two
 * change nothing the partner acts on, and a failed try is told by `task.failed` once the tries run out.
 */
const EVENT_OF_KIND: Partial<Record<TaskHistoryKind, PartnerEventType>> = {
  step_saved: 'task.step_saved',
  completed: 'task.completed',
  failed: 'task.failed',
  restarted: 'task.restarted',
};

export function partnerEventTypeOf(kind: TaskHistoryKind): PartnerEventType | undefined {
  return EVENT_OF_KIND[kind];
}
