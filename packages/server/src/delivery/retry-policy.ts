import type { UpstreamFailure } from '../upstream/upstream-outcome.ts';
import type { CircuitPolicy } from './delivery-circuit.ts';

/**
 * What to do with an update whose delivery failed: try again at a time, or give up (a dead letter).
 * Pure: the time, the randomness and the history come in as arguments, so every branch has its own test.
 */
export type RetryDecision =
  | { kind: 'retry'; at: number; delayMs: number; refused?: true }
  | { kind: 'dead'; reason: string }
  /** The platform keeps refusing the task (404/403) while it takes other updates: the task is not one of its own. */
  | { kind: 'reject'; reason: string };

export interface RetryPolicy extends Omit<CircuitPolicy, 'probeBaseMs' | 'retryAfterMaxMs'> {
  /** First backoff ceiling; the n-th retry waits a random time in [0, min(cap, base * 2^n)] ("full jitter"). */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * The longest Retry-After honoured (docs/platform.md#limits: limits not shown). The platform's own wait is kept even beyond
   * maxDelayMs, since retrying sooner only earns another 429; past this bound it is taken as an error of the platform.
   */
  retryAfterMaxMs: number;
  /**
   * How long after an update was written we keep trying before it becomes a dead letter, while the platform takes
   * other updates. Updates held behind an open circuit (the platform down, a permission missing) never age out.
   */
  giveUpAfterMs: number;
  /**
   * The waits between the tries of an update whose refusal (404/403) is the task's own (delivery-circuit.ts: the
   * platform took the credential's updates recently and never accepted this task); after the last, the task is
   * rejected. A task created a moment late on the platform is found within them.
   */
  refusalDelaysMs: readonly number[];
}

/** The circuit of a relay using this policy: its probes start at the first backoff step. */
export function circuitPolicyOf(policy: RetryPolicy): CircuitPolicy {
  return {
    openAfterFailures: policy.openAfterFailures,
    probeBaseMs: policy.baseDelayMs,
    probeMaxMs: policy.probeMaxMs,
    retryAfterMaxMs: policy.retryAfterMaxMs,
    successVouchesMs: policy.successVouchesMs,
  };
}

export const defaultRetryPolicy: RetryPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: 10 * 60_000,
  retryAfterMaxMs: 60 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
  openAfterFailures: 5,
  // Six tries over 75 s: a task the platform creates a moment late is found; one it never knows is rejected in 90 s.
  refusalDelaysMs: [5_000, 10_000, 15_000, 20_000, 25_000],
  // One probe every 10 s at most while the platform is away: no hammering, and a backlog starts draining within
  // 10 s of its return.
  probeMaxMs: 10_000,
  // An accepted update vouches for the credential a day: a quiet deployment still tells an invented task from an outage.
  successVouchesMs: 24 * 60 * 60_000,
};

export interface FailedAttempt {
  failure: UpstreamFailure;
  /** Retries already scheduled for this update (0 after the first failure). */
  attempts: number;
  /** When the update was written to the outbox. */
  createdAt: number;
  now: number;
  /** A number in [0, 1); Math.random in production, fixed in tests. */
  random: number;
  /** The attempt was a probe, or failed while the circuit was open: the platform, not the record, is at fault. */
  held?: boolean;
  /** The failure is a refusal (404/403) that the circuit judged to be the task's own, not the platform's. */
  taskRefusal?: boolean;
  /** The platform accepted an update of this task before (unknown: true, the cautious answer). */
  taskConfirmed?: boolean;
  /** Earlier refusals of this update while its task was never accepted (`countsAsRefusal`). */
  refusals?: number;
}

export function decideRetry(policy: RetryPolicy, attempt: FailedAttempt): RetryDecision {
  const { failure, attempts, createdAt, now, random, held = false, taskRefusal = false, refusals = 0 } = attempt;
  // Other 4xx (and records that break docs/platform.md#partner-task-update-record) will fail the same way every time: a dead letter at once.
  if (failure.kind === 'permanent') return { kind: 'dead', reason: deadReason(failure.reason, failure.status, failure.detail) };

  if (countsAsRefusal(attempt)) {
    const delayMs = policy.refusalDelaysMs[refusals];
    if (delayMs === undefined && taskRefusal) {
      return { kind: 'reject', reason: `the platform refused the task ${refusals + 1} times (HTTP ${failure.status}): ${failure.detail}` };
    }
    // Past the last wait, only a refusal judged the task's own rejects it; until then it is retried as the platform's.
    if (delayMs !== undefined) return { kind: 'retry', at: now + delayMs, delayMs, refused: true };
  }

  // Everything else is worth another try: 5xx, 408, 429, timeouts, network errors; and a credential or permission
  // problem (401 after renewal, a 403 or 404 that is the platform's, the token endpoint refusing us) that an operator
  // can fix without losing updates.
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempts, 30));
  const jittered = Math.floor(random * ceiling);
  const retryAfter = failure.kind === 'retryable' ? (failure.retryAfterMs ?? 0) : 0;
  // The server's Retry-After is a floor, never shortened by jitter, honoured up to retryAfterMaxMs.
  const delayMs = Math.max(jittered, Math.min(retryAfter, policy.retryAfterMaxMs));
  const at = now + delayMs;
  if (!held && at - createdAt > policy.giveUpAfterMs) {
    return {
      kind: 'dead',
      reason: `gave up after ${attempts + 1} attempts over ${Math.round((now - createdAt) / 60_000)} min: ${failure.detail}`,
    };
  }
  return { kind: 'retry', at, delayMs };
}

/**
 * Whether a failure counts toward its task's rejection and keeps the pace of `refusalDelaysMs`: a refusal (404/403) of
 * a task the platform never accepted, sent while the circuit was closed. The circuit judges it the task's own, or the
 * platform's while nothing vouches for the credential yet (delivery-circuit.ts): on a fresh deployment the first
 * refusal may come before the credential's first accepted update. Counted either way, a refused task costs the same
 * six tries over 75 s (docs/operations.md#the-platform-refuses-one-task), yet only a refusal judged the task's own
 * rejects it: a platform refusing every task (a role without the permission) rejects none.
 */
function countsAsRefusal({ failure, held = false, taskRefusal = false, taskConfirmed = true }: FailedAttempt): boolean {
  if (failure.kind !== 'unknown_task' && failure.kind !== 'forbidden') return false;
  return taskRefusal || (!taskConfirmed && !held);
}

function deadReason(reason: string, status: number | undefined, detail: string): string {
  return `${reason}${status === undefined ? '' : ` (HTTP ${status})`}: ${detail}`;
}
