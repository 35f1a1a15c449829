import type { OutboxUpdate } from '../store/outbox.table.ts';
import { releaseLease, releaseLeases } from '../store/outbox.repository.ts';
import { AHEAD_MAX_WAIT_MS, ClaimedAhead } from './claimed-ahead.ts';
import { deliverUpdate, type DeliveryContext } from './deliver-update.ts';
import { RememberedTasks, settleAndClaimRows, untilDue, type ClaimContext, type Claimed } from './relay-claims.ts';
import { nextMove, type LastClaim, type RelayMove } from './relay-moves.ts';
import { relaySettingsOf, type OutboxRelayOptions } from './relay-options.ts';
import { circuitPolicyOf } from './retry-policy.ts';
import { SlotShares } from './slot-shares.ts';
import { NOTHING_TO_CLAIM, TenantCircuits, type ClaimPlan } from './tenant-circuits.ts';
import { WakeSignal } from './wake-signal.ts';

export interface OutboxRelay {
  start(): void;
  /** A new row was enqueued: look now instead of at the next poll. */
  wake(): void;
  /** Stops claiming, waits for the deliveries in flight, releases any lease still held. */
  stop(): Promise<void>;
  readonly workerId: string;
}

/**
 * Delivers the outbox: a loop that makes one named move per turn (relay-moves.ts decides which), and up to
 * `concurrency` deliveries under way beside it, each of a different task.
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { store, clock, log, clients, concurrency, leaseMs, pollMs, claimIntervalMs, policy, workerId, refillBatch, lane, shareSlots } =
    relaySettingsOf(options);
  const ahead = new ClaimedAhead(clock, concurrency, store.dialect);
  const circuits = new TenantCircuits(circuitPolicyOf(policy));
  const shares = shareSlots ? new SlotShares(concurrency) : undefined;
  const signal = options.wakeSignal ?? new WakeSignal();

  const inFlight = new Set<Promise<void>>();
  /** Delivered, not yet settled: settled together in the next claim's transaction (one commit for many). */
  let deliveredUnsettled: OutboxUpdate[] = [];
  let running = false;
  let loop: Promise<void> | undefined;
  let lastClaimStartedAt = -Infinity;
  /** Claims that failed in a row (the database away): the first is logged, then the recovery. */
  let failedClaimsInRow = 0;

  const claims: ClaimContext = { store, clients, clock, leaseMs, workerId, log, lane, confirmed: new RememberedTasks() };
  const delivery: DeliveryContext = {
    store,
    clients,
    circuits,
    clock,
    policy,
    random: options.random ?? Math.random,
    log,
    metrics: options.metrics,
    workerId,
    lane,
    partnerEvents: options.partnerEvents,
    delivered: (update) => deliveredUnsettled.push(update),
    wake: () => signal.wake(),
  };

  function startDelivery(update: OutboxUpdate, probeOf?: string): void {
    if (probeOf !== undefined) circuits.of(probeOf).probeStarted();
    const job = deliverUpdate(delivery, update, probeOf !== undefined)
      .catch((error: unknown) => log.error({ err: error, updateId: update.id }, 'could not record a delivery outcome'))
      .finally(() => {
        inFlight.delete(job);
        shares?.release(update.id);
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
      if ((tenant !== undefined && circuits.of(tenant).isOpen) || waitedMs > AHEAD_MAX_WAIT_MS) {
        shares?.release(update.id);
        void releaseLease(store.db, update.id, workerId).catch((error: unknown) => log.warn({ err: error }, 'could not release a lease'));
        continue;
      }
      startDelivery(update);
    }
  }

  /** A claimed row holds a slot of its tenant's share until its delivery ends (a company with no receiver: none). */
  function holdSlot(update: OutboxUpdate): void {
    const tenant = shares && clients.route(update.companyUuid)?.tenant;
    if (tenant !== undefined) shares?.hold(update.id, tenant);
  }

  /** Settles what was delivered and claims more, in one transaction; on failure the deliveries wait for the next. */
  async function settleAndClaim(plan: ClaimPlan): Promise<Claimed> {
    const batch = deliveredUnsettled;
    deliveredUnsettled = [];
    try {
      return await settleAndClaimRows(claims, batch, plan);
    } catch (error) {
      deliveredUnsettled = [...batch, ...deliveredUnsettled];
      throw error;
    }
  }

  async function claim(plan: ClaimPlan): Promise<LastClaim> {
    lastClaimStartedAt = performance.now();
    try {
      const { rows, putBack } = await settleAndClaim(plan);
      for (const row of rows) {
        holdSlot(row.update);
        if (row.probeOf !== undefined || inFlight.size < concurrency) startDelivery(row.update, row.probeOf);
        else ahead.add(row.update);
      }
      if (failedClaimsInRow > 0) log.info({ failedClaims: failedClaimsInRow }, 'the database answers again: claiming outbox rows');
      failedClaimsInRow = 0;
      return { kind: 'claimed', rows: rows.length, roomAfter: ahead.room(inFlight.size), plan, putBack };
    } catch (error) {
      // Said once, not each second: the recovery is logged when a claim succeeds again.
      if (failedClaimsInRow === 0)
        log.error({ err: error }, 'could not claim outbox rows; retrying every second until the database answers');
      failedClaimsInRow += 1;
      return { kind: 'failed' };
    }
  }

  /** Carries out one move; returns how the claim went when it claimed. */
  async function make(move: RelayMove): Promise<LastClaim> {
    switch (move.kind) {
      case 'claim':
        return claim(move.plan);
      case 'all-held':
        if (move.settleFirst)
          await settleAndClaim(NOTHING_TO_CLAIM).catch((error: unknown) => log.error({ err: error }, 'could not record deliveries'));
        await signal.wait(move.waitMs);
        break;
      case 'pace':
        await new Promise((resolve) => setTimeout(resolve, move.waitMs));
        break;
      case 'wait-for-slot':
      case 'back-off':
        await signal.wait(move.waitMs);
        break;
      case 'wait-for-wake-or-due':
        await signal.wait(await untilDue(claims, { freeSlots: move.freeSlots, inFlight: inFlight.size, plan: move.plan, pollMs }));
        break;
    }
    return { kind: 'none' };
  }

  async function run(): Promise<void> {
    let last: LastClaim = { kind: 'none' };
    while (running) {
      fillSlots();
      const room = ahead.room(inFlight.size);
      const now = clock.now();
      const plan = circuits.plan(now, room, clients.deliverableCompanies());
      const move = nextMove({
        last,
        inFlight: inFlight.size,
        room,
        concurrency,
        refillBatch,
        plan: shares ? shares.narrow(plan, (tenant) => clients.companiesOf(tenant)) : plan,
        unsettled: deliveredUnsettled.length,
        now,
        msSinceLastClaim: performance.now() - lastClaimStartedAt,
        claimIntervalMs,
        pollMs,
      });
      last = await make(move);
    }
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
