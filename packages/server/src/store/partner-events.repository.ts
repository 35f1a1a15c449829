import type { TaskStatus } from '@partner-task-kit/workflow/contract';
import { maskSealed } from '../sensitive/sensitive-values.ts';
import type { StoreDb } from './database-schema.ts';
import type { Task } from './tasks.table.ts';

/** What the partner's backend is told of a task: one event per change, delivered in the partner lane of the outbox. */
export type PartnerEventType = 'task.step_saved' | 'task.completed' | 'task.failed' | 'task.restarted' | 'task.rejected';

/** The body of one event, as signed and sent (the Standard Webhooks `{type, timestamp, data}` shape). */
export interface PartnerEventBody {
  type: PartnerEventType;
  /** When the change was committed (ISO 8601); every retry sends the same. */
  timestamp: string;
  data: {
    assignedTaskUuid: string;
    workerUuid: string;
    taskFlowUuid: string;
    companyUuid: string;
    workflowId: string;
    attempt: number;
    stepId?: string;
    /**
     * The step's data as the server validated and stored it, sensitive values masked; a file field is described as
     * `{id, contentType, bytes, sha256}` when the event is written (packages/server/src/task-progress/file-descriptions.ts).
     */
    stepData?: unknown;
    status: TaskStatus;
  };
}

/** Whether a company's task changes are told to a partner endpoint (one is configured for it). */
export type PartnerEventsGate = (companyUuid: string) => boolean;

/**
 * Writes an event in the caller's transaction, beside the task change it tells of (docs/decisions/002-outbox-not-dual-writes.md):
 * committed with it or not at all. `task` is the task as changed in this transaction.
 */
export async function enqueuePartnerEvent(
  trx: StoreDb,
  input: { task: Task; type: PartnerEventType; now: number; stepId?: string | null; attempt?: number },
): Promise<void> {
  const { task, now } = input;
  const body = partnerEventOf(input);
  await trx
    .insertInto('outbox')
    .values({
      task_id: task.id,
      assigned_task_uuid: task.assignedTaskUuid,
      company_uuid: task.companyUuid.toLowerCase(),
      lane: 'partner',
      payload: JSON.stringify(body),
      // Not a platform sentAt: the platform lane's rule reads only its own rows (outbox-enqueue.repository.ts).
      sent_at: now,
      state: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    })
    .execute();
}

/** The event's body: what the task, as changed in this transaction, now is. */
export function partnerEventOf(input: {
  task: Task;
  type: PartnerEventType;
  now: number;
  stepId?: string | null;
  attempt?: number;
}): PartnerEventBody {
  const { task, type, now } = input;
  const stepId = input.stepId ?? undefined;
  return {
    type,
    timestamp: new Date(now).toISOString(),
    data: {
      assignedTaskUuid: task.assignedTaskUuid,
      workerUuid: task.workerUuid,
      taskFlowUuid: task.taskFlowUuid,
      companyUuid: task.companyUuid,
      workflowId: task.workflowId,
      attempt: input.attempt ?? task.attempt,
      ...(stepId === undefined ? {} : { stepId, stepData: maskSealed(task.stepData[stepId] ?? null) }),
      status: task.status,
    },
  };
}
