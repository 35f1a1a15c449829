import type { UpdateOutcome, UpstreamFailure } from '../upstream/upstream-outcome.ts';

export interface CircuitPolicy {
  /** Failed deliveries in a row, with no success between, after which the platform is taken to be down. */
  openAfterFailures: number;
  /** The first wait between probes; each failed probe doubles it, up to probeMaxMs. */
  probeBaseMs: number;
  /** The longest wait between probes: after the platform comes back, the backlog waits at most this long to start. */
  probeMaxMs: number;
  /** A Retry-After the platform sends is a floor for the next probe, honoured up to this bound. */
  retryAfterMaxMs: number;
  /** How long an accepted update vouches for the credential: a task refused within it is the task's own problem. */
  successVouchesMs: number;
}

/** What the relay may send now. */
export type Admission = { kind: 'any' } | { kind: 'probe' } | { kind: 'none'; until: number };

export type CircuitChange =
  /** The platform has failed too often in a row: stop sending, probe instead. */
  | { kind: 'opened'; cause: UpstreamFailure }
  /** A delivery got through while the circuit was open: every held update may go now. */
  | { kind: 'recovered'; openForMs: number; cause: UpstreamFailure }
  | { kind: 'unchanged' };

/** What one delivery's outcome did to the circuit, and whose fault a refusal was. */
export interface CircuitRecord {
  change: CircuitChange;
  /**
   * A 404/403 that is the task's own (an id the platform does not know), not the platform's: it counts toward the
   * task's rejection and nothing else.
   */
  taskRefusal: boolean;
}

export interface DeliveryFacts {
  now: number;
  /** The update went as the open circuit's probe. */
  probe: boolean;
  /** The platform accepted an update of this task before (unknown: true, the cautious answer). */
  taskConfirmed?: boolean;
}

/**
 * One circuit per credential (a credential's failures say nothing of another's): closed, every due update is sent;
 * open, one update at a time goes as a probe, at growing intervals; a probe that gets through closes it.
 * Pure state, fed the time: the relay owns the loop, the tests own the clock.
 *
 * What counts as a failure is what says the platform or the credential cannot take updates right now: a 5xx, 429,
 * timeout, network error, a token the platform refuses. A 4xx about the record itself (`permanent`) is an answer from
 * a working platform, so it counts as a success here.
 *
 * A refusal (404 unknown task, 403 forbidden) is judged by evidence, not by a run of failures, because anyone can
 * invent task ids (the context is not signed, docs/platform.md#task-context) and the platform answers those with refusals too:
 * - a task the platform never accepted, refused while the credential's updates were accepted recently
 *   (`successVouchesMs`) and no accepted task has been refused since: the task's own refusal, an answer from a
 *   working platform;
 * - a task accepted before, or any task while nothing vouches for the credential (nothing ever accepted: a wrong
 *   address, a role without the permission, docs/platform.md#permissions): the platform's refusal, a failure like an outage.
 */
export class DeliveryCircuit {
  private failuresInRow = 0;
  private openedAt: number | undefined;
  private cause: UpstreamFailure | undefined;
  private failedProbes = 0;
  private nextProbeAt = 0;
  private probing = false;
  private lastAcceptedAt: number | undefined;
  private lastConfirmedRefusedAt: number | undefined;
  private evidenceRead = false;

  constructor(private readonly policy: CircuitPolicy) {}

  get isOpen(): boolean {
    return this.openedAt !== undefined;
  }

  /** Why the circuit is open, for the metrics and the logs; undefined while closed. */
  get openCause(): UpstreamFailure | undefined {
    return this.isOpen ? this.cause : undefined;
  }

  /** Whether what the store knows of past deliveries still has to be read (once per process, `rememberAccepted`). */
  get needsEvidence(): boolean {
    return !this.evidenceRead && this.lastAcceptedAt === undefined;
  }

  /** The latest update the platform accepted before this process (from the store): evidence that outlives a restart. */
  rememberAccepted(at: number | null): void {
    this.evidenceRead = true;
    if (at !== null && (this.lastAcceptedAt === undefined || at > this.lastAcceptedAt)) this.lastAcceptedAt = at;
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

  record(outcome: UpdateOutcome, facts: DeliveryFacts): CircuitRecord {
    const { now, probe, taskConfirmed = true } = facts;
    if (probe) this.probing = false;
    if (outcome.kind === 'delivered') this.lastAcceptedAt = now;
    const refusal = outcome.kind === 'unknown_task' || outcome.kind === 'forbidden';
    const taskRefusal = refusal && !taskConfirmed && this.vouched(now);
    if (refusal && taskConfirmed) this.lastConfirmedRefusedAt = now;
    if (outcome.kind === 'delivered' || outcome.kind === 'permanent' || taskRefusal) return { change: this.answered(now), taskRefusal };
    return { change: this.failed(outcome, now, probe), taskRefusal: false };
  }

  /** An accepted update vouches for the credential, unless a task accepted before has been refused since. */
  private vouched(now: number): boolean {
    const accepted = this.lastAcceptedAt;
    if (accepted === undefined || now - accepted > this.policy.successVouchesMs) return false;
    return this.lastConfirmedRefusedAt === undefined || this.lastConfirmedRefusedAt < accepted;
  }

  /** The platform answered as a working platform does: the count starts again, and an open circuit closes. */
  private answered(now: number): CircuitChange {
    this.failuresInRow = 0;
    if (this.openedAt === undefined) return { kind: 'unchanged' };
    const change: CircuitChange = { kind: 'recovered', openForMs: now - this.openedAt, cause: this.cause! };
    this.openedAt = undefined;
    this.failedProbes = 0;
    return change;
  }

  private failed(outcome: UpstreamFailure, now: number, probe: boolean): CircuitChange {
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
