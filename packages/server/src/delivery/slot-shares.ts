import type { ClaimPlan } from './tenant-circuits.ts';

/**
 * A relay's slots shared among its tenants when each is a receiver of its own (tenant mode's partner endpoints, one
 * per company). A tenant holds a slot from its row's claim (in flight or claimed ahead) to the end of its delivery,
 * and may hold at most `concurrency / (other tenants holding slots + 2)`, at least one: as many as each of the
 * others, with a share left over for a tenant whose row comes next. Without it an endpoint that answers in 8 s (under
 * the timeout, so its circuit never opens) took every slot, and another company's events waited behind its backlog.
 * Alone it keeps half the slots; with others it gives back as its deliveries end. Pure bookkeeping.
 */
export class SlotShares {
  /** The tenant of each row held, by the row's id. */
  private readonly holders = new Map<number, string>();
  /** How many slots each tenant holds; a tenant holding none is not listed. */
  private readonly held = new Map<string, number>();

  constructor(private readonly concurrency: number) {}

  hold(rowId: number, tenant: string): void {
    if (this.holders.has(rowId)) return;
    this.holders.set(rowId, tenant);
    this.held.set(tenant, (this.held.get(tenant) ?? 0) + 1);
  }

  /** The row's delivery ended, or it went back in line unsent. */
  release(rowId: number): void {
    const tenant = this.holders.get(rowId);
    if (tenant === undefined) return;
    this.holders.delete(rowId);
    const left = (this.held.get(tenant) ?? 1) - 1;
    if (left > 0) this.held.set(tenant, left);
    else this.held.delete(tenant);
  }

  /** How many more rows the tenant may hold now (0 or less: none). */
  room(tenant: string): number {
    const mine = this.held.get(tenant) ?? 0;
    const others = this.held.size - (mine > 0 ? 1 : 0);
    return Math.max(1, Math.floor(this.concurrency / (others + 2))) - mine;
  }

  /**
   * The plan without the companies of tenants that hold their share, and with each claim's rows kept within each
   * tenant's room (relay-claims.ts puts the rest back). `companiesOf` names a tenant's companies.
   */
  narrow(plan: ClaimPlan, companiesOf: (tenant: string) => ReadonlySet<string> | undefined): ClaimPlan {
    const roomOf = (tenant: string) => this.room(tenant);
    const full = [...this.held.keys()].filter((tenant) => this.room(tenant) <= 0);
    if (full.length === 0 || plan.companies === null || plan.companies === undefined) return { ...plan, roomOf };
    const excluded = new Set(full.flatMap((tenant) => [...(companiesOf(tenant) ?? [])]));
    return { ...plan, companies: plan.companies.filter((company) => !excluded.has(company)), roomOf };
  }
}
