import type { Clock } from '../clock.ts';
import { claimDeliverable, markManyDelivered, nextDueAt, putBackClaims } from '../store/outbox.repository.ts';
import type { OutboxLane, OutboxUpdate } from '../store/outbox.table.ts';
import type { Store } from '../store/store.ts';
import { confirmTasks } from '../store/tasks.repository.ts';
import type { RelayLogger } from './deliver-update.ts';
import type { DeliveryClients } from './delivery-clients.ts';
import type { ClaimPlan } from './tenant-circuits.ts';

/** What the relay's claims need. */
export interface ClaimContext {
  store: Store;
  clients: DeliveryClients;
  clock: Clock;
  leaseMs: number;
  workerId: string;
  log: RelayLogger;
  lane: OutboxLane;
  /** Tasks this relay has marked confirmed: a delivery of one of them needs no statement to say so again. */
  confirmed: RememberedTasks;
}

/**
 * The ids of tasks known confirmed, at most `capacity` of them (forgotten all at once when full: one more confirming
 * statement for each is the only cost). confirmed_at is set once and never cleared, so what is remembered stays true.
 */
export class RememberedTasks {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 100_000) {}

  /** Those of `taskIds` not remembered yet. */
  unknown(taskIds: Iterable<string>): string[] {
    return [...new Set(taskIds)].filter((id) => !this.ids.has(id));
  }

  remember(taskIds: readonly string[]): void {
    if (this.ids.size + taskIds.length > this.capacity) this.ids.clear();
    for (const id of taskIds) this.ids.add(id);
  }
}

/** A leased row, and the tenant whose open circuit it probes, if it is a probe. */
interface ClaimedRow {
  update: OutboxUpdate;
  probeOf?: string;
}

/** What one claim leased, and how many rows it put back in line past their tenant's share of the slots. */
export interface Claimed {
  rows: ClaimedRow[];
  putBack: number;
}

/**
 * Settles `delivered` and claims up to the plan's limit more, in one transaction (one commit for many rows). A probe
 * is an update of a task the platform accepted before, the one that has waited longest for its next try, due or not:
 * each failed probe moves to the back, and an invented task (never accepted) never decides whether the platform is
 * back. Only when no such update waits does one of a task never accepted go (a new worker's `ready`), so nothing is
 * held for ever. With the slots shared among tenants (`plan.roomOf`), rows past a tenant's room go back in line in the
 * same transaction: the claim takes the oldest rows of any company, and one company's backlog would fill it.
 */
export function settleAndClaimRows(context: ClaimContext, delivered: readonly OutboxUpdate[], plan: ClaimPlan): Promise<Claimed> {
  const { store, clients, leaseMs, workerId, log, lane } = context;
  const now = context.clock.now();
  let confirming: string[] = [];
  const claiming = store.transact(async (trx) => {
    if (delivered.length > 0) {
      const ids = delivered.map((update) => update.id);
      const settled = await markManyDelivered(trx, ids, { now, workerId });
      if (settled.length < delivered.length) {
        log.warn({ count: delivered.length - settled.length }, 'delivered after the lease ran out; another relay may send them again');
      }
      // Accepted, lease or not: each of these tasks is the platform's own from now on (only the platform can say so).
      // One statement fewer per delivery of a task already confirmed (most of them: every step after the first).
      const toConfirm = lane === 'platform' ? context.confirmed.unknown(delivered.map((update) => update.taskId)) : [];
      if (toConfirm.length > 0) await confirmTasks(trx, toConfirm, now);
      confirming = toConfirm;
    }
    const claimed: ClaimedRow[] = [];
    for (const tenant of plan.probes) {
      const companies = clients.companiesOf(tenant);
      const probeCompanies = companies === undefined ? undefined : [...companies];
      const [update] = await claimDeliverable(trx, { now, leaseMs, limit: 1, workerId, anyDueTime: true, companies: probeCompanies, lane });
      if (update) claimed.push({ update, probeOf: tenant });
    }
    const limit = plan.limit - claimed.length;
    let putBack = 0;
    if (limit > 0 && plan.companies !== null) {
      const rows = await claimDeliverable(trx, { now, leaseMs, limit, workerId, companies: plan.companies, lane });
      const { kept, over } = plan.roomOf ? withinRooms(rows, plan.roomOf, clients) : { kept: rows, over: [] };
      const overIds = over.map((update) => update.id);
      putBack = await putBackClaims(trx, overIds, workerId);
      for (const update of kept) claimed.push({ update });
    }
    return { rows: claimed, putBack };
  });
  // Remembered once committed: a transaction rolled back confirmed nothing.
  return claiming.then((claimed) => {
    context.confirmed.remember(confirming);
    return claimed;
  });
}

/** The rows (oldest first) each tenant has room for, and those past it. */
function withinRooms(rows: readonly OutboxUpdate[], roomOf: (tenant: string) => number, clients: DeliveryClients) {
  const taken = new Map<string, number>();
  const kept: OutboxUpdate[] = [];
  const over: OutboxUpdate[] = [];
  for (const row of rows) {
    // A company with no receiver now holds no slot: its delivery puts the row back at once (deliver-update.ts).
    const tenant = clients.route(row.companyUuid)?.tenant;
    const count = tenant === undefined ? 0 : (taken.get(tenant) ?? 0);
    if (tenant !== undefined && count >= roomOf(tenant)) {
      over.push(row);
      continue;
    }
    if (tenant !== undefined) taken.set(tenant, count + 1);
    kept.push(row);
  }
  return { kept, over };
}

/**
 * How long the loop may sleep when nothing is deliverable now: until a wake, the next probe, or the next row falling
 * due (nextDueAt already skips rows queued behind their task's update in flight), at most the poll.
 */
export async function untilDue(
  context: ClaimContext,
  state: { freeSlots: number; inFlight: number; plan: ClaimPlan; pollMs: number },
): Promise<number> {
  const { freeSlots, inFlight, plan, pollMs } = state;
  const now = context.clock.now();
  // While deliveries are in flight, each one that finishes wakes the loop: no need to ask the database.
  if (freeSlots <= 0 || inFlight > 0) return pollMs;
  const untilProbe = Math.max(plan.nextProbeAt - now, 0);
  // Rows of held companies do not count: they are not claimable however due they are.
  const due = plan.companies === null ? null : await nextDueAt(context.store.db, plan.companies, context.lane).catch(() => null);
  if (due === null) return Math.min(pollMs, untilProbe);
  // A due time already past means a row fell due between the claim and now: look again at once.
  return Math.min(pollMs, untilProbe, Math.max(due - context.clock.now(), 0));
}
