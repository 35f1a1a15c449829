import type { UpdateOutcome, UpstreamFailure } from '../upstream/upstream-outcome';

export interface CircuitPolicy {
  /** Failed deliveries in a row, with no success between, after which the platform is taken to be down. */
  openAfterFailures: number;
  /** The first wait between probes; each failed probe doubles it, up to probeMaxMs. */
  probeBaseMs: number;
  /** The longest wait between probes: after the platform comes back, the backlog waits at most this long to start. */
  probeMaxMs: number;
  /** A Retry-After the platform sends is a floor for the next probe, honoured up to this bound. */
  retryAfterMaxMs: number;
}

/** What the relay may send now. */
export type Admission = { kind: 'any' } | { kind: 'probe' } | { kind: 'none'; until: number };

export type CircuitChange =
  /** The platform has failed too often in a row: stop sending, probe instead. */
  | { kind: 'opened'; cause: UpstreamFailure }
  /** A delivery got through while the circuit was open: every held update may go now. */
  | { kind: 'recovered'; openForMs: number; cause: UpstreamFailure }
  | { kind: 'unchanged' };

/**
 * One circuit per credential (a credential's failures say nothing of another's): closed, every due update is sent;
 * open, one update at a time goes as a probe, at growing intervals; a probe that gets through closes it.
 * Pure state, fed the time: the relay owns the loop, the tests own the clock.
 *
 * What counts as a failure is what says the platform or the credential cannot take updates right now: a 5xx, 429,
 * timeout, network error, a token the platform refuses, a 403 (the role lacks a permission, spec 5.6). A 4xx about
 * the record itself (`permanent`) is an answer from a working platform, so it counts as a success here.
 */
export class DeliveryCircuit {
  private failuresInRow = 0;
  private openedAt: number | undefined;
  private cause: UpstreamFailure | undefined;
  private failedProbes = 0;
  private nextProbeAt = 0;
  private probing = false;

  constructor(private readonly policy: CircuitPolicy) {}

  get isOpen(): boolean {
    return this.openedAt !== undefined;
  }

  /** Why the circuit is open, for the metrics and the logs; undefined while closed. */
  get openCause(): UpstreamFailure | undefined {
    return this.isOpen ? this.cause : undefined;
  }

  admit(now: number): Admission {
    if (this.openedAt === undefined) return { kind: 'any' };
    // One probe at a time: until it answers, nothing else is due.
    if (this.probing) return { kind: 'none', until: Number.POSITIVE_INFINITY };
    if (now < this.nextProbeAt) return { kind: 'none', until: this.nextProbeAt };
    return { kind: 'probe' };
  }

  /** The relay claimed an update to send as the probe. */
  probeStarted(): void {
    this.probing = true;
  }

  record(outcome: UpdateOutcome, options: { now: number; probe: boolean }): CircuitChange {
    const { now, probe } = options;
    if (probe) this.probing = false;
    if (outcome.kind === 'delivered' || outcome.kind === 'permanent') {
      this.failuresInRow = 0;
      if (this.openedAt === undefined) return { kind: 'unchanged' };
      const change: CircuitChange = { kind: 'recovered', openForMs: now - this.openedAt, cause: this.cause! };
      this.openedAt = undefined;
      this.failedProbes = 0;
      return change;
    }
    this.failuresInRow += 1;
    this.cause = outcome;
    if (this.openedAt !== undefined) {
      // A failure that was already in flight when the circuit opened does not push the next probe back.
      if (probe) this.scheduleProbe(outcome, now, ++this.failedProbes);
      return { kind: 'unchanged' };
    }
    if (this.failuresInRow < this.policy.openAfterFailures) return { kind: 'unchanged' };
    this.openedAt = now;
    this.failedProbes = 0;
    this.scheduleProbe(outcome, now, 0);
    return { kind: 'opened', cause: outcome };
  }

  private scheduleProbe(failure: UpstreamFailure, now: number, failedProbes: number): void {
    const { probeBaseMs, probeMaxMs, retryAfterMaxMs } = this.policy;
    const backoff = Math.min(probeMaxMs, probeBaseMs * 2 ** Math.min(failedProbes, 30));
    const retryAfter = failure.kind === 'retryable' ? Math.min(failure.retryAfterMs ?? 0, retryAfterMaxMs) : 0;
    this.nextProbeAt = now + Math.max(backoff, retryAfter);
  }
}
