import { describe, expect, it } from 'vitest';
import { nextMove, type RelayTurn } from '@partner-task-kit/server/delivery/relay-moves';
import type { ClaimPlan } from '@partner-task-kit/server/delivery/tenant-circuits';

const open: ClaimPlan = { limit: 16, probes: [], companies: undefined, nextProbeAt: Number.POSITIVE_INFINITY };
const allHeld: ClaimPlan = { limit: 16, probes: [], companies: null, nextProbeAt: 4_000 };

/** A quiet relay: nothing in flight, every slot free, the last claim long ago. */
const quiet: RelayTurn = {
  last: { kind: 'none' },
  inFlight: 0,
  room: 16,
  concurrency: 16,
  refillBatch: 4,
  plan: open,
  unsettled: 0,
  now: 1_000,
  msSinceLastClaim: 10_000,
  claimIntervalMs: 5,
  pollMs: 5_000,
};

describe('the relay loop: one named move per turn', () => {
  it('claims at once when slots are free and the platform takes updates', () => {
    expect(nextMove(quiet)).toEqual({ kind: 'claim', plan: open });
  });

  it('waits for a slot while deliveries run and fewer than a batch of slots are free', () => {
    expect(nextMove({ ...quiet, inFlight: 13, room: 3 })).toEqual({ kind: 'wait-for-slot', waitMs: 5_000 });
    // With nothing in flight nothing would wake it: a lone free slot is claimed for.
    expect(nextMove({ ...quiet, inFlight: 0, room: 1 })).toMatchObject({ kind: 'claim' });
  });

  it('paces claims: rows written within the claim interval are claimed together', () => {
    expect(nextMove({ ...quiet, msSinceLastClaim: 2 })).toEqual({ kind: 'pace', waitMs: 3 });
  });

  it('holds everything while every circuit is open and no probe is due, settling what got through first', () => {
    expect(nextMove({ ...quiet, plan: allHeld })).toEqual({ kind: 'all-held', waitMs: 3_000, settleFirst: false });
    expect(nextMove({ ...quiet, plan: allHeld, unsettled: 2 })).toEqual({ kind: 'all-held', waitMs: 3_000, settleFirst: true });
    expect(nextMove({ ...quiet, plan: { ...allHeld, nextProbeAt: 0 } })).toMatchObject({ waitMs: 0 });
    // A probe is due: it is claimed, even with every circuit open.
    const probing = { ...allHeld, probes: ['default'] };
    expect(nextMove({ ...quiet, plan: probing })).toEqual({ kind: 'claim', plan: probing });
  });

  it('backs off after a failed claim instead of trying again in a hot loop', () => {
    expect(nextMove({ ...quiet, last: { kind: 'failed' } })).toEqual({ kind: 'back-off', waitMs: 1_000 });
    expect(nextMove({ ...quiet, last: { kind: 'failed' }, pollMs: 200 })).toEqual({ kind: 'back-off', waitMs: 200 });
  });

  it('after a claim that left slots free, waits for a wake or a due row; after a full one, goes on', () => {
    const partial = { kind: 'claimed', rows: 3, roomAfter: 13, plan: open } as const;
    expect(nextMove({ ...quiet, last: partial })).toEqual({ kind: 'wait-for-wake-or-due', freeSlots: 13, plan: open });
    const nothing = { kind: 'claimed', rows: 0, roomAfter: 0, plan: open } as const;
    expect(nextMove({ ...quiet, last: nothing })).toMatchObject({ kind: 'wait-for-wake-or-due' });
    const full = { kind: 'claimed', rows: 16, roomAfter: 0, plan: open } as const;
    expect(nextMove({ ...quiet, last: full, room: 0, inFlight: 16 })).toEqual({ kind: 'wait-for-slot', waitMs: 5_000 });
  });

  it("after a claim that put rows back past their tenant's share, claims again for the other tenants' rows", () => {
    const trimmed = { kind: 'claimed', rows: 1, roomAfter: 40, plan: open, putBack: 23 } as const;
    expect(nextMove({ ...quiet, last: trimmed, room: 40, inFlight: 9, msSinceLastClaim: 10 })).toEqual({ kind: 'claim', plan: open });
  });
});
