import type { ClaimPlan } from './tenant-circuits.ts';

/** What one turn of the relay's loop does: each turn makes exactly one of these moves. */
export type RelayMove =
  /** Lease deliverable rows (and probes) in one transaction, settling the deliveries finished since the last. */
  | { kind: 'claim'; plan: ClaimPlan }
  /**
   * Too few slots free to be worth a claim transaction while deliveries run: each one that ends wakes the loop. Under
   * load the relay refills in batches (one commit for several slots), which is what bounds its throughput.
   */
  | { kind: 'wait-for-slot'; waitMs: number }
  /**
   * Every tenant's circuit is open and no probe is due: settle what did get through (if anything), then sleep until
   * the next probe or a wake.
   */
  | { kind: 'all-held'; waitMs: number; settleFirst: boolean }
  /** The last claim was moments ago: rows written meanwhile are claimed together, one transaction for many. */
  | { kind: 'pace'; waitMs: number }
  /** The last claim failed (the database is away): try again soon, not in a hot loop. */
  | { kind: 'back-off'; waitMs: number }
  /**
   * The last claim left slots free: nothing more is deliverable now. Sleep until a wake (a new row, a finished
   * delivery) or until the next row falls due, which the relay reads from the store for `freeSlots` and `plan`.
   */
  | { kind: 'wait-for-wake-or-due'; freeSlots: number; plan: ClaimPlan };

/** How the previous turn's claim went, if the previous turn claimed. */
export type LastClaim =
  | { kind: 'none' }
  | { kind: 'failed' }
  /** `putBack`: rows claimed past their tenant's share of the slots (slot-shares.ts) and put back in line. */
  | { kind: 'claimed'; rows: number; roomAfter: number; plan: ClaimPlan; putBack?: number };

export interface RelayTurn {
  last: LastClaim;
  /** Deliveries under way. */
  inFlight: number;
  /** How many more rows may be claimed now (slots and rows claimed ahead together). */
  room: number;
  concurrency: number;
  /** Below this many free slots, and with deliveries under way, the relay waits for more to free up. */
  refillBatch: number;
  /** What the circuits allow now (TenantCircuits.plan). */
  plan: ClaimPlan;
  /** Deliveries finished and not yet settled in the store. */
  unsettled: number;
  now: number;
  msSinceLastClaim: number;
  claimIntervalMs: number;
  /** The safety-net poll: no sleep is longer. */
  pollMs: number;
}

/** A failed claim is tried again after this long at most (the database is restarting, a network blip). */
const CLAIM_RETRY_MS = 1_000;

/** The one move of this turn. Pure: the loop feeds it its state and carries the move out. */
export function nextMove(turn: RelayTurn): RelayMove {
  const { last, plan, pollMs } = turn;
  if (last.kind === 'failed') return { kind: 'back-off', waitMs: Math.min(pollMs, CLAIM_RETRY_MS) };
  // A full batch claimed, or rows put back past their tenant's share (other tenants' rows may wait behind them, and
  // that tenant is left out of the next claim): there may be more waiting, so go on at once; else nothing is
  // deliverable until a wake.
  if (last.kind === 'claimed' && !(last.rows > 0 && last.roomAfter === 0) && !((last.putBack ?? 0) > 0)) {
    return { kind: 'wait-for-wake-or-due', freeSlots: last.roomAfter, plan: last.plan };
  }
  if (turn.room < Math.min(turn.refillBatch, turn.concurrency) && turn.inFlight > 0) return { kind: 'wait-for-slot', waitMs: pollMs };
  if (plan.companies === null && plan.probes.length === 0) {
    return { kind: 'all-held', waitMs: Math.min(pollMs, Math.max(plan.nextProbeAt - turn.now, 0)), settleFirst: turn.unsettled > 0 };
  }
  if (turn.msSinceLastClaim < turn.claimIntervalMs) return { kind: 'pace', waitMs: turn.claimIntervalMs - turn.msSinceLastClaim };
  return { kind: 'claim', plan };
}
