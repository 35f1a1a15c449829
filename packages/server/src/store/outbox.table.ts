import type { Generated, Selectable } from 'kysely';
import type { PartnerTaskUpdate } from '@partner-task-kit/workflow/contract';

export type OutboxState = 'pending' | 'delivered' | 'dead';

/**
 * Who a row goes to: the platform (a partner-task update) or the partner's own backend (an event, partner-events.repository.ts).
 * Each lane has its own relay, so one endpoint down never delays the other's rows.
 */
export const outboxLanes = ['platform', 'partner'] as const;

export type OutboxLane = (typeof outboxLanes)[number];

export interface OutboxTable {
  /** Allocated in commit order per task (the task row is locked first), so id order is delivery order. */
  id: Generated<number>;
  task_id: string;
  assigned_task_uuid: string;
  /** The task's company, copied at enqueue: whose credential delivers it. Null only for rows older than tenancy. */
  company_uuid: string | null;
  lane: Generated<OutboxLane>;
  /** JSON text of the full docs/platform.md#partner-task-update-record record (the partner lane: the event's body), sentAt included: every retry resends the same record with the same sentAt. */
  payload: string;
  sent_at: number;
  state: OutboxState;
  attempts: number;
  /** Refusals of this update as unknown or forbidden (404/403) by a platform that took others meanwhile. */
  refusals: Generated<number>;
  next_attempt_at: number;
  /** The lease (docs/decisions/003-per-task-order-with-leases.md): a row is in flight while locked_until >= now. */
  locked_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  dead_reason: string | null;
  created_at: number;
  delivered_at: number | null;
  dead_at: number | null;
}

export type OutboxRow = Selectable<OutboxTable>;

/** One update of one task, with its delivery state. */
export interface OutboxUpdate {
  id: number;
  taskId: string;
  assignedTaskUuid: string;
  /** The client company whose credential delivers it (docs/platform.md#authentication). */
  companyUuid: string;
  lane: OutboxLane;
  /** In the partner lane, the event's body (packages/server/src/store/partner-events.repository.ts), sent as stored. */
  payload: PartnerTaskUpdate;
  sentAt: number;
  state: OutboxState;
  attempts: number;
  refusals: number;
  nextAttemptAt: number;
  lockedUntil: number | null;
  lockedBy: string | null;
  lastError: string | null;
  deadReason: string | null;
  createdAt: number;
  deliveredAt: number | null;
  deadAt: number | null;
}

export function toOutboxUpdate(row: OutboxRow): OutboxUpdate {
  // Validated by partnerTaskUpdateSchema when enqueued; not re-validated here so one odd row cannot stall a claim.
  const payload = JSON.parse(row.payload) as PartnerTaskUpdate;
  return {
    id: row.id,
    taskId: row.task_id,
    assignedTaskUuid: row.assigned_task_uuid,
    companyUuid: row.company_uuid ?? '',
    lane: row.lane ?? 'platform',
    payload,
    sentAt: row.sent_at,
    state: row.state,
    attempts: row.attempts,
    refusals: Number(row.refusals ?? 0),
    nextAttemptAt: row.next_attempt_at,
    lockedUntil: row.locked_until,
    lockedBy: row.locked_by,
    lastError: row.last_error,
    deadReason: row.dead_reason,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    deadAt: row.dead_at,
  };
}
