import type { Store } from '../store/store.ts';
import type { OutboxUpdate } from '../store/outbox.table.ts';
import { markDead, rejectTask, scheduleRetry } from '../store/outbox.repository.ts';
import type { UpstreamFailure } from '../upstream/upstream-outcome.ts';
import type { PartnerEventsGate } from '../store/partner-events.repository.ts';
import { tenantLabelOf } from './circuit-reports.ts';
import type { DeliveryMetrics } from './delivery-metrics.ts';
import { decideRetry, type RetryPolicy } from './retry-policy.ts';

export interface FailedDeliveryDeps {
  store: Store;
  workerId: string;
  policy: RetryPolicy;
  random: () => number;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
  metrics: DeliveryMetrics | undefined;
  partnerEvents?: PartnerEventsGate | undefined;
}

export interface FailedDelivery {
  update: OutboxUpdate;
  failure: UpstreamFailure;
  tenant: string;
  now: number;
  /** The tenant's circuit was open, or this was its probe: the failure is the platform's, not the record's. */
  held: boolean;
  /** A refusal (404/403) that is the task's own (delivery-circuit.ts): it moves the task toward rejection. */
  taskRefusal: boolean;
  /** The platform accepted an update of this task before: a refusal of it is never the task's own. */
  taskConfirmed: boolean;
  /** The platform came back while this delivery was in flight: its retry is not made to wait out the outage's backoff. */
  recoveredMeanwhile: boolean;
}

/**
 * Settles a row whose delivery failed, as the retry policy decides: the task rejected (the platform keeps refusing it),
 * a dead letter (it will fail the same way every time), or a retry later. The row stays pending on a retry, so the
 * task's later rows keep waiting behind it (docs/decisions/003-per-task-order-with-leases.md).
 */
export async function settleFailedDelivery(deps: FailedDeliveryDeps, failed: FailedDelivery): Promise<void> {
  const { store, workerId, policy, log, metrics } = deps;
  const { update, failure, tenant, now } = failed;
  const decision = decideRetry(policy, {
    failure,
    attempts: update.attempts,
    createdAt: update.createdAt,
    now,
    random: deps.random(),
    held: failed.held,
    taskRefusal: failed.taskRefusal,
    taskConfirmed: failed.taskConfirmed,
    refusals: update.refusals,
  });
  if (decision.kind === 'reject') {
    const { partnerEvents } = deps;
    await rejectTask(store.db, { taskId: update.taskId, updateId: update.id, workerId, now, reason: decision.reason, partnerEvents });
    metrics?.taskRejected();
    // The context values are not signed (docs/platform.md#partner-task-configuration): a task the platform does not know may have been invented.
    log.warn(
      { tenant: tenantLabelOf(tenant), taskId: update.taskId, assignedTaskUuid: update.assignedTaskUuid, reason: decision.reason },
      "task rejected: the platform refuses it and never accepted it, while it accepts the credential's other updates; nothing more is sent for it",
    );
    return;
  }
  if (decision.kind === 'dead') {
    await markDead(store.db, update.id, { workerId, now, reason: decision.reason });
    metrics?.deadLettered();
    log.error(
      { tenant: tenantLabelOf(tenant), updateId: update.id, taskId: update.taskId, reason: decision.reason },
      'update moved to dead letters',
    );
    return;
  }
  await scheduleRetry(store.db, update.id, {
    workerId,
    // A refusal keeps its pace whatever the platform did meanwhile: the grace of a task created late.
    nextAttemptAt: failed.recoveredMeanwhile && !decision.refused ? now : decision.at,
    error: `${failure.kind}: ${failure.detail}`,
    ...(decision.refused ? { refused: true } : {}),
  });
  log.warn(
    {
      tenant: tenantLabelOf(tenant),
      updateId: update.id,
      taskId: update.taskId,
      failure: failure.kind,
      detail: failure.detail,
      retryInMs: decision.delayMs,
    },
    'delivery failed; will retry',
  );
}
