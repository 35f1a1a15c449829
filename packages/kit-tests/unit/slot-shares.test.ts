import { describe, expect, it } from 'vitest';
import { SlotShares } from '@partner-task-kit/server/delivery/slot-shares';
import type { ClaimPlan } from '@partner-task-kit/server/delivery/tenant-circuits';

const plan: ClaimPlan = { limit: 64, probes: [], companies: ['a', 'b', 'c'], nextProbeAt: Number.POSITIVE_INFINITY };
const itself = (tenant: string) => new Set([tenant]);

/** `count` rows of `tenant` held, with ids from `firstId`. */
function holdMany(shares: SlotShares, tenant: string, count: number, firstId: number): void {
  for (let id = firstId; id < firstId + count; id += 1) shares.hold(id, tenant);
}

describe("a relay's slots shared among its tenants", () => {
  it('lets a tenant alone hold half the slots, and leaves the rest for the next', () => {
    const shares = new SlotShares(16);
    expect(shares.room('a')).toBe(8);
    holdMany(shares, 'a', 8, 1);
    expect(shares.room('a')).toBe(0);
    // A newcomer may take a share as if it were busy too, with one more left over.
    expect(shares.room('b')).toBe(5);
    expect(shares.narrow(plan, itself)).toMatchObject({ companies: ['b', 'c'] });
  });

  it('shrinks every share as more tenants hold slots, never below one', () => {
    const shares = new SlotShares(16);
    holdMany(shares, 'a', 8, 1);
    holdMany(shares, 'b', 2, 100);
    // Two tenants busy: 16 / 3 each, so a tenant above it takes no more until its deliveries end.
    expect([shares.room('a'), shares.room('b'), shares.room('c')]).toEqual([-3, 3, 4]);
    for (let index = 0; index < 20; index += 1) shares.hold(1000 + index, `t${index}`);
    expect(shares.room('c')).toBe(1);
  });

  it('gives a slot back when its row is released, once', () => {
    const shares = new SlotShares(16);
    holdMany(shares, 'a', 8, 1);
    shares.release(1);
    shares.release(1);
    shares.release(999);
    expect(shares.room('a')).toBe(1);
    expect(shares.narrow(plan, itself).companies).toEqual(['a', 'b', 'c']);
    for (let id = 2; id <= 8; id += 1) shares.release(id);
    expect(shares.room('b')).toBe(8);
  });

  it("keeps a plan that holds every company's rows, or claims for any company, as it is, with each tenant's room", () => {
    const shares = new SlotShares(16);
    holdMany(shares, 'a', 8, 1);
    const held = shares.narrow({ ...plan, companies: null }, itself);
    expect(held.companies).toBeNull();
    expect(held.roomOf?.('a')).toBe(0);
    expect(shares.narrow({ ...plan, companies: undefined }, itself).companies).toBeUndefined();
  });
});
