import { describe, expect, it } from 'vitest';
import { TenantCircuits } from '@partner-task-kit/server/delivery/tenant-circuits';
import type { UpdateOutcome } from '@partner-task-kit/server/upstream/upstream-outcome';

const policy = { openAfterFailures: 1, probeBaseMs: 1_000, probeMaxMs: 10_000, retryAfterMaxMs: 60_000, successVouchesMs: 86_400_000 };
const down: UpdateOutcome = { kind: 'retryable', reason: 'server_error', status: 503, detail: 'HTTP 503' };

describe('the circuits of every tenant, as one claim plan', () => {
  it('claims for every deliverable company while every circuit is closed', () => {
    const circuits = new TenantCircuits(policy);
    expect(circuits.plan(0, 8, new Set(['a', 'b']))).toEqual({ limit: 8, probes: [], companies: ['a', 'b'], nextProbeAt: Infinity });
    expect(circuits.plan(0, 8, undefined).companies).toBeUndefined();
  });

  it("leaves out a held company's rows, and probes it once its probe is due", () => {
    const circuits = new TenantCircuits(policy);
    circuits.of('a').record(down, { now: 0, probe: false });
    expect(circuits.plan(500, 8, new Set(['a', 'b']))).toEqual({ limit: 8, probes: [], companies: ['b'], nextProbeAt: 1_000 });
    expect(circuits.plan(1_000, 8, new Set(['a', 'b']))).toMatchObject({ probes: ['a'], companies: ['b'] });
  });

  it("claims nothing but probes while the single credential's circuit is open", () => {
    const circuits = new TenantCircuits(policy);
    circuits.of('default').record(down, { now: 0, probe: false });
    expect(circuits.plan(0, 8, undefined)).toMatchObject({ probes: [], companies: null, nextProbeAt: 1_000 });
    expect(circuits.plan(1_000, 8, undefined)).toMatchObject({ probes: ['default'], companies: null });
  });
});
