import { listUpdatesForTask } from '../store/outbox-status.repository';
import { listHistory } from '../store/task-history.repository';
import { listTaskChanges } from '../store/task-changes.repository';
import type { Store } from '../store/store';
import { workflowOf } from '../task-progress/locked-task';
import { readPartnerTask } from '../task-progress/partner-task-access';
import { decodeCursor, encodeCursor } from './changes-cursor';
import type { PartnerTask, TaskChanges } from './partner-schemas';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * One task for a partner: its context, workflow, state, the current attempt's step data (a restart clears them; only
 * the history of earlier attempts is kept), and its updates to the platform with their delivery state.
 */
export async function getPartnerTask(
  store: Store,
  input: { assignedTaskUuid: string; companies: ReadonlySet<string> | undefined },
): Promise<PartnerTask> {
  const task = await readPartnerTask(store.db, input.assignedTaskUuid, input.companies);
  const [history, updates] = await Promise.all([listHistory(store.db, task.id), listUpdatesForTask(store.db, task.id)]);
  const workflow = workflowOf(task);
  return {
    id: task.id,
    assignedTaskUuid: task.assignedTaskUuid,
    context: { workerUuid: task.workerUuid, taskFlowUuid: task.taskFlowUuid, companyUuid: task.companyUuid },
    workflow: {
      id: workflow.id,
      steps: workflow.steps.map((step) =>
        step.completedBy === undefined ? { id: step.id } : { id: step.id, completedBy: step.completedBy },
      ),
    },
    status: task.status,
    attempt: task.attempt,
    currentStep: task.currentStep,
    stepData: task.stepData,
    failedReason: task.failedReason,
    rejected: task.rejectedAt !== null,
    history: history.map((entry) => ({ attempt: entry.attempt, kind: entry.kind, stepId: entry.stepId, at: iso(entry.at)! })),
    // Only the platform's lane: the partner's own events are the partner's to read from its endpoint.
    updates: updates
      .filter((update) => update.lane === 'platform')
      .map((update) => ({
        id: update.id,
        record: update.payload,
        // The platform's error texts stay in our logs and operator tools (docs/api.md#get-apitaskupdates).
        delivery: {
          state: update.state,
          attempts: update.attempts,
          deliveredAt: iso(update.deliveredAt),
          nextAttemptAt: update.state === 'pending' ? iso(update.nextAttemptAt) : null,
          lastError: null,
          deadReason: null,
        },
      })),
    createdAt: iso(task.createdAt)!,
    updatedAt: iso(task.updatedAt)!,
  };
}

/** The changes feed: tasks changed after the cursor, oldest change first (task-changes.repository.ts says why none is skipped). */
export async function listPartnerTaskChanges(
  store: Store,
  input: { updatedAfter: string | undefined; limit: number; companyUuid: string | undefined },
): Promise<TaskChanges> {
  const after = decodeCursor(input.updatedAfter);
  const changes = await listTaskChanges(store.db, { after, limit: input.limit, companyUuid: input.companyUuid });
  const last = changes.at(-1)?.marker ?? after;
  return {
    tasks: changes.map(({ task }) => ({
      id: task.id,
      assignedTaskUuid: task.assignedTaskUuid,
      companyUuid: task.companyUuid,
      workflowId: task.workflowId,
      status: task.status,
      attempt: task.attempt,
      currentStep: task.currentStep,
      rejected: task.rejectedAt !== null,
      updatedAt: iso(task.updatedAt)!,
    })),
    nextCursor: encodeCursor(last),
    count: changes.length,
  };
}
