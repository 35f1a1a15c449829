import { listUpdatesForTask } from '../store/outbox-status.repository.ts';
import { listHistory } from '../store/task-history.repository.ts';
import { listTaskChanges } from '../store/task-changes.repository.ts';
import type { Store } from '../store/store.ts';
import { revealSealed, type SensitiveRevealer } from '../sensitive/reveal-sealed.ts';
import { maskSealed } from '../sensitive/sensitive-values.ts';
import { describeFiles } from '../task-progress/file-descriptions.ts';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';
import { workflowOf } from '../task-progress/locked-task.ts';
import { readPartnerTask } from '../task-progress/partner-task-access.ts';
import type { CursorSeal } from './changes-cursor.ts';
import type { FeedWatch } from './feed-watch.ts';
import type { PartnerTask, TaskChanges } from './partner-schemas.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * One task for a partner: its context, workflow, state, the current attempt's step data (a restart clears them; only
 * the history of earlier attempts is kept), and its updates to the platform with their delivery state. Sensitive
 * values are masked unless `reveal` asks for them; then each is recorded (key, task, field, time) before it is shown.
 */
export async function getPartnerTask(
  store: Store,
  workflows: WorkflowCatalog,
  input: { assignedTaskUuid: string; companies: ReadonlySet<string> | undefined; reveal?: SensitiveRevealer },
): Promise<PartnerTask> {
  const task = await readPartnerTask(store.db, input.assignedTaskUuid, input.companies);
  const workflow = workflowOf(workflows, task);
  const shown = input.reveal === undefined ? maskSealed(task.stepData) : await revealSealed(store.db, input.reveal, task);
  const stepData = await describeFiles(store.db, { taskId: task.id, workflow, stepData: shown });
  const [history, updates] = await Promise.all([listHistory(store.db, task.id), listUpdatesForTask(store.db, task.id)]);
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
    stepData,
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

/**
 * The changes feed: tasks changed or removed after the cursor, oldest change first (task-changes.repository.ts says
 * why none is skipped). Within a page each assigned task appears once, at its latest change: as a task, or as a
 * removal when its row was deleted since (or deleted, opened again and so listed as the new task).
 */
export async function listPartnerTaskChanges(
  store: Store,
  input: { updatedAfter: string | undefined; limit: number; companyUuid: string | undefined; cursors: CursorSeal; watch?: FeedWatch },
): Promise<TaskChanges> {
  const after = await input.cursors.open(input.updatedAfter);
  const changes = await listTaskChanges(store.db, { after, limit: input.limit, companyUuid: input.companyUuid });
  const last = changes.at(-1)?.marker;
  if (changes.length < input.limit) await input.watch?.atHead({ after: last ?? after, companyUuid: input.companyUuid });
  const latest = new Map<string, (typeof changes)[number]>();
  for (const change of changes) {
    const key = change.assignedTaskUuid.toLowerCase();
    latest.delete(key); // re-inserted: the map keeps the order of each task's latest change
    latest.set(key, change);
  }
  const kept = [...latest.values()];
  const tasks = kept.flatMap(({ task, ...change }) =>
    task === null
      ? []
      : [
          {
            id: change.taskId,
            assignedTaskUuid: change.assignedTaskUuid,
            companyUuid: change.companyUuid,
            workflowId: task.workflowId,
            status: task.status,
            attempt: task.attempt,
            currentStep: task.currentStep,
            rejected: task.rejectedAt !== null,
            updatedAt: iso(task.updatedAt)!,
          },
        ],
  );
  const removed = kept.flatMap(({ removal, ...change }) =>
    removal === null
      ? []
      : [
          {
            id: change.taskId,
            assignedTaskUuid: change.assignedTaskUuid,
            companyUuid: change.companyUuid,
            reason: removal.reason,
            removedAt: iso(removal.removedAt)!,
          },
        ],
  );
  return {
    tasks,
    removed,
    // The cursor a partner sent comes back as it was when nothing changed.
    nextCursor: last === undefined && input.updatedAfter ? input.updatedAfter : await input.cursors.seal(last ?? after),
    count: tasks.length + removed.length,
  };
}
