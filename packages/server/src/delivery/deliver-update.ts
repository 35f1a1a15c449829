import type { Clock } from '../clock.ts';
import { bringRetriesForward, releaseLease } from '../store/outbox.repository.ts';
import type { OutboxLane, OutboxUpdate } from '../store/outbox.table.ts';
import type { PartnerEventsGate } from '../store/partner-events.repository.ts';
import type { Store } from '../store/store.ts';
import { isTaskConfirmed, lastConfirmationAt } from '../store/tasks.repository.ts';
import type { UpdateOutcome } from '../upstream/upstream-outcome.ts';
import { failureName, reportOpened, reportResumed } from './circuit-reports.ts';
import type { CircuitChange } from './delivery-circuit.ts';
import type { DeliveryClients } from './delivery-clients.ts';
import type { DeliveryMetrics } from './delivery-metrics.ts';
import { settleFailedDelivery } from './failed-delivery.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { TenantCircuits } from './tenant-circuits.ts';

export interface RelayLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** What a delivery needs of its relay. */
export interface DeliveryContext {
  store: Store;
  clients: DeliveryClients;
  circuits: TenantCircuits;
  clock: Clock;
  policy: RetryPolicy;
  random: () => number;
  log: RelayLogger;
  metrics: DeliveryMetrics | undefined;
  workerId: string;
  lane: OutboxLane;
  /** Platform lane: whose rejected tasks are told to the partner's backend. */
  partnerEvents: PartnerEventsGate | undefined;
  /** A delivered row keeps its lease until it is settled with the relay's next claim (one commit for many). */
  delivered(update: OutboxUpdate): void;
  /** Held rows became due (the platform answers again): the relay looks at once. */
  wake(): void;
}

/** Sends one leased row to the platform and records what came of it: in the circuit, the metrics and the store. */
export async function deliverUpdate(context: DeliveryContext, update: OutboxUpdate, probe: boolean): Promise<void> {
  const { store, clients, circuits, clock, log, metrics, workerId } = context;
  const route = clients.route(update.companyUuid);
  if (!route) {
    // The company lost its credential between the claim and now (removed): hold the update, count no attempt.
    await releaseLease(store.db, update.id, workerId);
    return;
  }
  const { tenant, client } = route;
  const circuit = circuits.of(tenant);
  const sentUnder = circuits.recoveries(tenant);
  let outcome: UpdateOutcome;
  try {
    outcome = await client.updatePartnerTask(update.assignedTaskUuid, update.payload, update);
  } catch (error) {
    // The client returns values; a throw is our own bug. Keep the row and retry rather than lose it.
    log.error({ err: error, updateId: update.id }, 'delivery threw');
    outcome = { kind: 'retryable', reason: 'network', detail: error instanceof Error ? error.message : String(error) };
  }
  const now = clock.now();
  const refused = outcome.kind === 'unknown_task' || outcome.kind === 'forbidden';
  // Whose a refusal is depends on evidence (delivery-circuit.ts): read only when there is a refusal to judge.
  if (refused && circuit.needsEvidence) {
    const companies = clients.companiesOf(tenant);
    circuit.rememberAccepted(await lastConfirmationAt(store.db, companies === undefined ? undefined : [...companies]));
  }
  const taskConfirmed = refused ? await isTaskConfirmed(store.db, update.taskId) : true;
  // Read before the outcome is recorded: a failure while the circuit is open is the platform's, not the record's.
  const held = probe || circuit.isOpen;
  const { change, taskRefusal } = circuits.record(tenant, outcome, { now, probe, taskConfirmed });
  if (outcome.kind === 'delivered') {
    // The row keeps its lease until settled, so the task's next update cannot overtake it (per-task order).
    context.delivered(update);
    metrics?.delivered(now - update.createdAt);
    await reactToCircuit(context, tenant, change, now);
    return;
  }
  metrics?.failed(failureName(outcome));
  await reactToCircuit(context, tenant, change, now);
  await settleFailedDelivery(context, {
    update,
    failure: outcome,
    tenant,
    now,
    held,
    taskRefusal,
    taskConfirmed,
    recoveredMeanwhile: circuits.recoveries(tenant) !== sentUnder,
  });
}

/** Says what a circuit's change means for the operator, and acts on a recovery. */
async function reactToCircuit(context: DeliveryContext, tenant: string, change: CircuitChange, now: number): Promise<void> {
  const { store, clients, circuits, policy, log, metrics } = context;
  if (change.kind === 'unchanged') return;
  metrics?.circuit(tenant, circuits.of(tenant).openCause);
  if (change.kind === 'opened') {
    reportOpened(log, context.lane, tenant, change.cause, policy.probeMaxMs);
    return;
  }
  // The platform answers again: rows backing off from the outage are due at once (bounded by the concurrency).
  const forward = await bringRetriesForward(store.db, now, clients.companiesOf(tenant), context.lane);
  reportResumed(log, context.lane, tenant, { broughtForward: forward, pausedForMs: change.openForMs, cause: change.cause });
  context.wake();
}
