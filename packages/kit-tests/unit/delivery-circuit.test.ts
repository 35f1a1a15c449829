import { describe, expect, it } from 'vitest';
import { DeliveryCircuit } from '@partner-task-kit/server/delivery/delivery-circuit';
import type { UpdateOutcome } from '@partner-task-kit/server/upstream/upstream-outcome';

const DAY_MS = 24 * 60 * 60_000;
const policy = { openAfterFailures: 3, probeBaseMs: 1_000, probeMaxMs: 10_000, retryAfterMaxMs: 60_000, successVouchesMs: DAY_MS };
const down: UpdateOutcome = { kind: 'retryable', reason: 'server_error', status: 503, detail: 'HTTP 503' };
const delivered: UpdateOutcome = { kind: 'delivered', status: 200 };

function openCircuit(now = 0): DeliveryCircuit {
  const circuit = new DeliveryCircuit(policy);
  for (let failure = 0; failure < policy.openAfterFailures; failure += 1) circuit.record(down, { now, probe: false });
  return circuit;
}

describe('delivery circuit', () => {
  it('lets everything through until failures come in a row, and a success in between starts the count again', () => {
    const circuit = new DeliveryCircuit(policy);
    circuit.record(down, { now: 0, probe: false });
    circuit.record(down, { now: 0, probe: false });
    circuit.record(delivered, { now: 0, probe: false });
    circuit.record(down, { now: 0, probe: false });
    expect(circuit.admit(0)).toEqual({ kind: 'any' });
    expect(circuit.record(down, { now: 0, probe: false }).change).toEqual({ kind: 'unchanged' });
    expect(circuit.record(down, { now: 0, probe: false }).change).toMatchObject({ kind: 'opened', cause: down });
    expect(circuit.isOpen).toBe(true);
  });

  it('once open, admits one probe at a time, at intervals doubling from the base to the cap', () => {
    const circuit = openCircuit(0);
    expect(circuit.admit(999)).toEqual({ kind: 'none', until: 1_000 });
    let now = 1_000;
    const intervals: number[] = [];
    for (let probe = 0; probe < 6; probe += 1) {
      expect(circuit.admit(now)).toEqual({ kind: 'probe' });
      circuit.probeStarted();
      // While a probe is out, nothing else goes, however long it takes.
      expect(circuit.admit(now + 60_000)).toMatchObject({ kind: 'none' });
      circuit.record(down, { now, probe: true });
      const next = circuit.admit(now);
      if (next.kind !== 'none') throw new Error('expected to wait');
      intervals.push(next.until - now);
      now = next.until;
    }
    expect(intervals).toEqual([2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it('waits at least the Retry-After the platform asked for before the next probe', () => {
    const circuit = openCircuit(0);
    circuit.probeStarted();
    circuit.record(
      { kind: 'retryable', reason: 'rate_limited', status: 429, retryAfterMs: 30_000, detail: 'HTTP 429' },
      { now: 1_000, probe: true },
    );
    expect(circuit.admit(1_000)).toEqual({ kind: 'none', until: 31_000 });
  });

  it('does not push the next probe back for a failure that was already in flight when it opened', () => {
    const circuit = openCircuit(0);
    circuit.record(down, { now: 500, probe: false });
    expect(circuit.admit(1_000)).toEqual({ kind: 'probe' });
  });

  it('closes on the first delivery, saying for how long it was open and why', () => {
    const circuit = openCircuit(0);
    circuit.probeStarted();
    expect(circuit.record(delivered, { now: 7_000, probe: true }).change).toEqual({ kind: 'recovered', openForMs: 7_000, cause: down });
    expect(circuit.admit(7_000)).toEqual({ kind: 'any' });
    expect(circuit.openCause).toBeUndefined();
  });

  it("takes a refusal of the record itself (a 4xx other than 401, 403, 404) as the platform's answer, closing the circuit", () => {
    const circuit = openCircuit(0);
    circuit.probeStarted();
    const { change } = circuit.record(
      { kind: 'permanent', reason: 'rejected', status: 422, detail: 'invalid' },
      { now: 1_000, probe: true },
    );
    expect(change.kind).toBe('recovered');
  });

  it('keeps a 403 as the cause: the role lacks a permission, for the metric and the log', () => {
    const circuit = new DeliveryCircuit(policy);
    const forbidden: UpdateOutcome = { kind: 'forbidden', status: 403, detail: 'permission_denied' };
    for (let failure = 0; failure < 3; failure += 1) circuit.record(forbidden, { now: 0, probe: false });
    expect(circuit.openCause).toEqual(forbidden);
  });
});

describe('delivery circuit: whose a refusal is', () => {
  const unknown: UpdateOutcome = { kind: 'unknown_task', status: 404, detail: 'task_not_found' };
  const forbidden: UpdateOutcome = { kind: 'forbidden', status: 403, detail: 'permission_denied' };
  const never = { taskConfirmed: false, probe: false };

  it("takes the refusal of a task never accepted as the task's own while the credential's updates were accepted lately", () => {
    const circuit = new DeliveryCircuit(policy);
    circuit.record(delivered, { now: 0, probe: false });
    for (let refusal = 1; refusal <= 30; refusal += 1) {
      const recorded = circuit.record(refusal % 2 ? unknown : forbidden, { now: refusal * 1_000, ...never });
      expect(recorded).toEqual({ change: { kind: 'unchanged' }, taskRefusal: true });
    }
    expect(circuit.isOpen).toBe(false);
  });

  it('counts a success remembered from the store (a restarted server) as evidence, within its day only', () => {
    const vouched = new DeliveryCircuit(policy);
    expect(vouched.needsEvidence).toBe(true);
    vouched.rememberAccepted(1_000);
    expect(vouched.needsEvidence).toBe(false);
    expect(vouched.record(unknown, { now: 1_000 + 60 * 60_000, ...never }).taskRefusal).toBe(true);

    const stale = new DeliveryCircuit(policy);
    stale.rememberAccepted(1_000);
    expect(stale.record(unknown, { now: 1_000 + DAY_MS + 1, ...never }).taskRefusal).toBe(false);
  });

  it("holds every refusal as the platform's when nothing was ever accepted: a wrong address or a missing permission", () => {
    const circuit = new DeliveryCircuit(policy);
    circuit.rememberAccepted(null);
    expect(circuit.needsEvidence).toBe(false);
    for (let refusal = 0; refusal < 3; refusal += 1) {
      expect(circuit.record(forbidden, { now: refusal, ...never }).taskRefusal).toBe(false);
    }
    expect(circuit.openCause).toEqual(forbidden);
  });

  it('opens when tasks accepted before are refused too, and from then holds the refusals of new tasks as well', () => {
    const circuit = new DeliveryCircuit(policy);
    circuit.record(delivered, { now: 0, probe: false });
    expect(circuit.record(forbidden, { now: 1, probe: false, taskConfirmed: true }).taskRefusal).toBe(false);
    // A new task's refusal no longer proves the task invented: the platform refuses a task it took before.
    expect(circuit.record(forbidden, { now: 2, ...never }).taskRefusal).toBe(false);
    expect(circuit.record(forbidden, { now: 3, probe: false, taskConfirmed: true }).change.kind).toBe('opened');
    // Only a new acceptance vouches again.
    circuit.probeStarted();
    expect(circuit.record(delivered, { now: 4, probe: true }).change.kind).toBe('recovered');
    expect(circuit.record(unknown, { now: 5, ...never }).taskRefusal).toBe(true);
  });

  it("closes an outage's circuit when the platform answers a probe with the task's own refusal: it answers again", () => {
    const circuit = new DeliveryCircuit(policy);
    circuit.record(delivered, { now: 0, probe: false });
    for (let failure = 0; failure < policy.openAfterFailures; failure += 1) circuit.record(down, { now: 1, probe: false });
    expect(circuit.isOpen).toBe(true);
    circuit.probeStarted();
    expect(circuit.record(unknown, { now: 2_000, probe: true, taskConfirmed: false })).toEqual({
      change: { kind: 'recovered', openForMs: 1_999, cause: down },
      taskRefusal: true,
    });
  });
});
