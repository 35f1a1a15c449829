import type { UpdateOutcome } from '../upstream/upstream-outcome.ts';
import { DeliveryCircuit, type CircuitPolicy, type CircuitRecord, type DeliveryFacts } from './delivery-circuit.ts';

/** What the relay claims in one transaction, from the circuits of every tenant. */
export interface ClaimPlan {
  limit: number;
  /** Tenants whose circuit admits a probe now: one row each. */
  probes: string[];
  /** Whose rows to claim beside the probes: undefined any company, null none (every circuit open). */
  companies: readonly string[] | undefined | null;
  /** The soonest probe of a tenant whose circuit is open and not due yet. */
  nextProbeAt: number;
  /** With the slots shared among tenants (slot-shares.ts): how many more rows a tenant may hold; else no bound. */
  roomOf?: (tenant: string) => number;
}

export const NOTHING_TO_CLAIM: ClaimPlan = { limit: 0, probes: [], companies: null, nextProbeAt: Number.POSITIVE_INFINITY };

/** The tenant of the single credential: its circuit holds every company it serves. */
const SINGLE_TENANT = 'default';

/**
 * One circuit per tenant (per credential): one company's outage or missing permission holds only its updates.
 * Pure bookkeeping, fed the time; made on first use.
 */
export class TenantCircuits {
  private readonly circuits = new Map<string, DeliveryCircuit>();
  private readonly recoveryCounts = new Map<string, number>();

  constructor(private readonly policy: CircuitPolicy) {}

  /**
   * How many times the tenant's platform came back after failures. A delivery remembers the count it was sent under:
   * one that fails after a recovery it did not see is not made to wait out the outage's backoff.
   */
  recoveries(tenant: string): number {
    return this.recoveryCounts.get(tenant) ?? 0;
  }

  /** Records one delivery's outcome in its tenant's circuit. */
  record(tenant: string, outcome: UpdateOutcome, facts: DeliveryFacts): CircuitRecord {
    const recorded = this.of(tenant).record(outcome, facts);
    if (recorded.change.kind === 'recovered') this.recoveryCounts.set(tenant, this.recoveries(tenant) + 1);
    return recorded;
  }

  of(tenant: string): DeliveryCircuit {
    let circuit = this.circuits.get(tenant);
    if (!circuit) this.circuits.set(tenant, (circuit = new DeliveryCircuit(this.policy)));
    return circuit;
  }

  /**
   * What to claim now: a probe for each tenant whose circuit admits one, and up to `limit` rows of the companies whose
   * circuit is closed among `deliverable` (those with a credential; undefined: any company).
   */
  plan(now: number, limit: number, deliverable: ReadonlySet<string> | undefined): ClaimPlan {
    const probes: string[] = [];
    const held = new Set<string>();
    let nextProbeAt = Number.POSITIVE_INFINITY;
    for (const [tenant, circuit] of this.circuits) {
      const admission = circuit.admit(now);
      if (admission.kind === 'any') continue;
      held.add(tenant);
      if (admission.kind === 'probe' && probes.length < limit) probes.push(tenant);
      else if (admission.kind === 'none') nextProbeAt = Math.min(nextProbeAt, admission.until);
    }
    let companies: readonly string[] | undefined | null;
    if (held.has(SINGLE_TENANT)) companies = null;
    else if (deliverable === undefined) companies = undefined;
    else companies = [...deliverable].filter((company) => !held.has(company));
    return { limit, probes, companies, nextProbeAt };
  }
}
