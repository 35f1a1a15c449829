import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { Store } from '../store/store';
import type { OutboxUpdate } from '../store/outbox.table';
import {
  bringRetriesForward,
  claimDeliverable,
  markManyDelivered,
  nextDueAt,
  releaseLease,
  releaseLeases,
} from '../store/outbox.repository';
import type { UpdateOutcome } from '../upstream/upstream-outcome';
import type { CircuitChange } from './delivery-circuit';
import { oneClient, type DeliveryClients, type UpdateSender } from './delivery-clients';
import type { DeliveryMetrics } from './delivery-metrics';
import { circuitPolicyOf, defaultRetryPolicy, type RetryPolicy } from './retry-policy';
import { settleFailedDelivery } from './failed-delivery';
import { failureName, reportOpened } from './circuit-reports';
import { NOTHING_TO_CLAIM, TenantCircuits, type ClaimPlan } from './tenant-circuits';
import { WakeSignal } from './wake-signal';
import { AHEAD_MAX_WAIT_MS, ClaimedAhead } from './claimed-ahead';

interface RelayLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface OutboxRelayOptions {
  store: Store;
  /** One client for every update (one tenant), or a client per company's credential. */
  client: UpdateSender | DeliveryClients;
  clock: Clock;
  log: RelayLogger;
  metrics?: DeliveryMetrics;
  /** Updates of different tasks in flight at once; one task never has more than one (DESIGN decision 3). */
  concurrency?: number;
  /** How long a claim holds a row; must outlast a call's timeout so a slow delivery is not claimed twice. */
  leaseMs?: number;
  /** Safety-net poll: new rows wake the relay at once, this only catches what another process enqueued. */
  pollMs?: number;
  /**
   * At most one claim transaction per this many ms: under load the updates written meanwhile are claimed together
   * (one commit for many rows, not one per request: bench/api.ts measured about one claim per step before). A claim
   * after a quiet spell happens at once, so a lone update still leaves without delay.
   */
  claimIntervalMs?: number;
  policy?: RetryPolicy;
  /** Rung by request handlers after a commit that wrote an update; made before the relay so the app can be built first. */
  wakeSignal?: WakeSignal;
  random?: () => number;
  workerId?: string;
}

export interface OutboxRelay {
  start(): void;
  /** A new row was enqueued: look now instead of at the next poll. */
  wake(): void;
  /** Stops claiming, waits for the deliveries in flight, releases any lease still held. */
  stop(): Promise<void>;
  readonly workerId: string;
}

export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { store, clock, log, metrics } = options;
  const clients = 'route' in options.client ? options.client : oneClient(options.client);
  const concurrency = options.concurrency ?? 16;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 5_000;
  const claimIntervalMs = options.claimIntervalMs ?? 5;
  const policy = options.policy ?? defaultRetryPolicy;
  const random = options.random ?? Math.random;
  const workerId = options.workerId ?? `relay-${randomUUID()}`;
  const refillBatch = Math.max(1, Math.floor(concurrency / 4));
  const ahead = new ClaimedAhead(clock, concurrency, store.dialect);

  const signal = options.wakeSignal ?? new WakeSignal();
  const inFlight = new Set<Promise<void>>();
  /** Delivered, not yet recorded: settled together in the next claim's transaction (one commit for many). */
  let delivered: OutboxUpdate[] = [];
  let running = false;
  let loop: Promise<void> | undefined;
  let lastClaimAt = -Infinity;
  /** Claims that failed in a row (the database away): the first is logged, then the recovery. */
  let claimFailures = 0;
  const circuits = new TenantCircuits(circuitPolicyOf(policy));
  const circuitOf = (tenant: string) => circuits.of(tenant);
  /** How many times a tenant's platform came back after failures; a delivery remembers the count it was sent under. */
  const recoveries = new Map<string, number>();

  /** Says what the circuit's change means for the operator, and acts on a recovery. */
  async function circuitChanged(tenant: string, change: CircuitChange, now: number): Promise<void> {
    if (change.kind === 'unchanged') return;
    metrics?.circuit(tenant, circuitOf(tenant).openCause);
    if (change.kind === 'opened') {
      reportOpened(log, tenant, change.cause, policy.probeMaxMs);
      return;
    }
    // The platform answers again: rows backing off from the outage are due at once (bounded by the concurrency).
    recoveries.set(tenant, (recoveries.get(tenant) ?? 0) + 1);
    const forward = await bringRetriesForward(store.db, now, clients.companiesOf(tenant));
    log.info(
      { tenant, updates: forward, pausedForMs: change.openForMs, failure: failureName(change.cause) },
      'delivery resumed: the platform answers again; sending the held updates now',
    );
    signal.wake();
  }

  const failureDeps = { store, workerId, policy, random, log, metrics };

  async function deliver(update: OutboxUpdate, probe: boolean): Promise<void> {
    const route = clients.route(update.companyUuid);
    if (!route) {
      // The company lost its credential between the claim and now (removed): hold the update, count no attempt.
      await releaseLease(store.db, update.id, workerId);
      return;
    }
    const { tenant, client } = route;
    const circuit = circuitOf(tenant);
    const sentInEpoch = recoveries.get(tenant) ?? 0;
    let outcome: UpdateOutcome;
    try {
      outcome = await client.updatePartnerTask(update.assignedTaskUuid, update.payload);
    } catch (error) {
      // The client returns values; a throw is our own bug. Keep the row and retry rather than lose it.
      log.error({ err: error, updateId: update.id }, 'delivery threw');
      outcome = { kind: 'retryable', reason: 'network', detail: error instanceof Error ? error.message : String(error) };
    }
    const now = clock.now();
    // Read before the outcome is recorded: a failure while the circuit is open is the platform's, not the record's.
    const held = probe || circuit.isOpen;
    const change = circuit.record(outcome, { now, probe });
    if (outcome.kind === 'delivered') {
      // The row keeps its lease until recorded, so the task's next update cannot overtake it (DESIGN decision 3).
      delivered.push(update);
      metrics?.delivered(now - update.createdAt);
      await circuitChanged(tenant, change, now);
      return;
    }
    metrics?.failed(failureName(outcome));
    await circuitChanged(tenant, change, now);
    await settleFailedDelivery(failureDeps, {
      update,
      failure: outcome,
      tenant,
      now,
      held,
      recoveredMeanwhile: (recoveries.get(tenant) ?? 0) !== sentInEpoch,
    });
  }

  function track(update: OutboxUpdate, probeOf?: string): void {
    const probe = probeOf !== undefined;
    if (probe) circuitOf(probeOf).probeStarted();
    const job = deliver(update, probe)
      .catch((error: unknown) => log.error({ err: error, updateId: update.id }, 'could not record a delivery outcome'))
      .finally(() => {
        inFlight.delete(job);
        ahead.deliveryFinished();
        fillSlots();
        // The task's next update may now be claimable, and a slot is free.
        signal.wake();
      });
    inFlight.add(job);
  }

  /**
   * Rows claimed ahead go into the free slots. One goes back in line instead (to be claimed anew) when its tenant's
   * circuit opened meanwhile, or when it waited so long (a slow platform) that its lease might run out before its own
   * slowest delivery ends.
   */
  function fillSlots(): void {
    while (running && inFlight.size < concurrency && ahead.length > 0) {
      const update = ahead.next()!;
      const tenant = clients.route(update.companyUuid)?.tenant;
      const waitedMs = clock.now() - ((update.lockedUntil ?? 0) - leaseMs);
      if ((tenant !== undefined && circuitOf(tenant).isOpen) || waitedMs > AHEAD_MAX_WAIT_MS) {
        void releaseLease(store.db, update.id, workerId).catch((error: unknown) => log.warn({ err: error }, 'could not release a lease'));
        continue;
      }
      track(update);
    }
  }

  /**
   * Records what was delivered and claims up to `limit` more, in one transaction. A probe is the pending update that
   * has waited longest for its next try, due or not: each failed probe moves to the back, so one update that the
   * platform refuses for its own reasons cannot keep the circuit open for the others.
   */
  async function settleAndClaim(plan: ClaimPlan): Promise<Array<{ update: OutboxUpdate; probeOf?: string }>> {
    const batch = delivered;
    delivered = [];
    const now = clock.now();
    try {
      return await store.transact(async (trx) => {
        if (batch.length > 0) {
          const settled = await markManyDelivered(
            trx,
            batch.map((update) => update.id),
            { now, workerId },
          );
          if (settled.length < batch.length) {
            log.warn({ count: batch.length - settled.length }, 'delivered after the lease ran out; another relay may send them again');
          }
        }
        const claimed: Array<{ update: OutboxUpdate; probeOf?: string }> = [];
        for (const tenant of plan.probes) {
          const companies = listOf(clients.companiesOf(tenant));
          const [update] = await claimDeliverable(trx, { now, leaseMs, limit: 1, workerId, anyDueTime: true, companies });
          if (update) claimed.push({ update, probeOf: tenant });
        }
        const limit = plan.limit - claimed.length;
        if (limit > 0 && plan.companies !== null) {
          for (const update of await claimDeliverable(trx, { now, leaseMs, limit, workerId, companies: plan.companies }))
            claimed.push({ update });
        }
        return claimed;
      });
    } catch (error) {
      delivered = [...batch, ...delivered];
      throw error;
    }
  }

  async function run(): Promise<void> {
    while (running) {
      fillSlots();
      const free = ahead.room(inFlight.size);
      // Under load, refill in batches: one claim transaction for several free slots instead of one per finished
      // delivery, which is what bounds throughput (each claim is a write transaction). Below the batch size the loop
      // claims at once, so a quiet server delivers a new update without delay.
      if (free < Math.min(refillBatch, concurrency) && inFlight.size > 0) {
        await signal.wait(pollMs);
        continue;
      }
      const plan = circuits.plan(clock.now(), free, clients.deliverableCompanies());
      if (plan.companies === null && plan.probes.length === 0) {
        // Every tenant's platform is away: record what did get through, then sleep until the next probe or a wake.
        if (delivered.length > 0)
          await settleAndClaim(plan).catch((error: unknown) => log.error({ err: error }, 'could not record deliveries'));
        await signal.wait(Math.min(pollMs, Math.max(plan.nextProbeAt - clock.now(), 0)));
        continue;
      }
      const sinceLastClaim = performance.now() - lastClaimAt;
      if (sinceLastClaim < claimIntervalMs) {
        await delay(claimIntervalMs - sinceLastClaim);
        continue;
      }
      lastClaimAt = performance.now();
      let claimed: number;
      try {
        const rows = await settleAndClaim(plan);
        claimed = rows.length;
        for (const row of rows) {
          if (row.probeOf !== undefined || inFlight.size < concurrency) track(row.update, row.probeOf);
          else ahead.add(row.update);
        }
      } catch (error) {
        // The database is away (restarting, network): try again soon, not in a hot loop; say so once, not each second.
        if (claimFailures === 0) log.error({ err: error }, 'could not claim outbox rows; retrying every second until the database answers');
        claimFailures += 1;
        await signal.wait(Math.min(pollMs, 1000));
        continue;
      }
      if (claimFailures > 0) {
        log.info({ failedClaims: claimFailures }, 'the database answers again: claiming outbox rows');
        claimFailures = 0;
      }
      if (!running) break;
      // Claimed a full batch: there may be more waiting.
      const freeAfter = ahead.room(inFlight.size);
      if (claimed > 0 && freeAfter === 0) continue;
      await signal.wait(await sleepBudget(freeAfter, plan));
    }
  }

  /**
   * How long the loop may sleep. A finishing delivery or a new row wakes it early; otherwise it wakes when the next
   * retry falls due (nextDueAt already skips rows queued behind their task's update in flight), or at the poll.
   */
  async function sleepBudget(freeSlots: number, plan: ClaimPlan): Promise<number> {
    // While deliveries are in flight, each one that finishes wakes the loop: no need to ask the database.
    if (freeSlots <= 0 || inFlight.size > 0) return pollMs;
    const untilProbe = Math.max(plan.nextProbeAt - clock.now(), 0);
    // Rows of held companies do not count: they are not claimable however due they are.
    const due = plan.companies === null ? null : await nextDueAt(store.db, plan.companies).catch(() => null);
    if (due === null) return Math.min(pollMs, untilProbe);
    // A due time already past means a row fell due between the claim and now: look again at once.
    return Math.min(pollMs, untilProbe, Math.max(due - clock.now(), 0));
  }

  return {
    workerId,
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake() {
      signal.wake();
    },
    async stop() {
      running = false;
      signal.wake();
      await loop;
      // Rows claimed ahead were never sent: their leases are released below.
      ahead.clear();
      await Promise.allSettled([...inFlight]);
      await settleAndClaim(NOTHING_TO_CLAIM).catch((error: unknown) => log.warn({ err: error }, 'could not record the last deliveries'));
      // Leases run out by themselves; releasing them only lets the next process start sooner.
      await releaseLeases(store.db, workerId).catch((error: unknown) => log.warn({ err: error }, 'could not release leases'));
    },
  };
}

function listOf(companies: ReadonlySet<string> | undefined): string[] | undefined {
  return companies === undefined ? undefined : [...companies];
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
