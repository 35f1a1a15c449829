import { describe, expect, it } from 'vitest';
import { decideRetry, defaultRetryPolicy } from '@partner-task-kit/server/delivery/retry-policy';
import type { UpstreamFailure } from '@partner-task-kit/server/upstream/upstream-outcome';

const createdAt = Date.parse('2026-11-22T10:00:00.000Z');
const serverError: UpstreamFailure = { kind: 'retryable', reason: 'server_error', status: 503, detail: 'HTTP 503' };

const decide = (failure: UpstreamFailure, attempts: number, now = createdAt, random = 0.5) =>
  decideRetry(defaultRetryPolicy, { failure, attempts, createdAt, now, random });

describe('retry policy', () => {
  it('backs off exponentially with full jitter from about one second', () => {
    expect(decide(serverError, 0, createdAt, 0.999)).toMatchObject({ kind: 'retry', delayMs: 999 });
    expect(decide(serverError, 3, createdAt, 0.999)).toMatchObject({ kind: 'retry', delayMs: 7992 });
    expect(decide(serverError, 3, createdAt, 0)).toMatchObject({ kind: 'retry', delayMs: 0 });
  });

  it('never waits more than ten minutes', () => {
    expect(decide(serverError, 40, createdAt, 0.999)).toMatchObject({ kind: 'retry', delayMs: 599_400 });
  });

  it('honours Retry-After as a floor under the jitter', () => {
    const limited: UpstreamFailure = { kind: 'retryable', reason: 'rate_limited', status: 429, retryAfterMs: 30_000, detail: 'HTTP 429' };
    expect(decide(limited, 0, createdAt, 0.1)).toMatchObject({ kind: 'retry', delayMs: 30_000, at: createdAt + 30_000 });
  });

  it('keeps a Retry-After beyond the backoff cap: the platform asked for it', () => {
    const limited: UpstreamFailure = { kind: 'retryable', reason: 'rate_limited', retryAfterMs: 30 * 60_000, detail: 'HTTP 429' };
    expect(decide(limited, 0)).toMatchObject({ kind: 'retry', delayMs: 30 * 60_000 });
  });

  it('bounds an enormous Retry-After by its documented maximum, an hour', () => {
    const limited: UpstreamFailure = { kind: 'retryable', reason: 'rate_limited', retryAfterMs: 86_400_000, detail: 'HTTP 429' };
    expect(decide(limited, 0)).toMatchObject({ kind: 'retry', delayMs: 3_600_000 });
  });

  it("rejects a task after six of its own refusals within 90 s, and keeps retrying a refusal that is the platform's", () => {
    const unknown: UpstreamFailure = { kind: 'unknown_task', status: 404, detail: 'task_not_found' };
    let now = createdAt;
    const requests = [now];
    for (let refusals = 0; ; refusals += 1) {
      const decision = decideRetry(defaultRetryPolicy, {
        failure: unknown,
        attempts: refusals,
        createdAt,
        now,
        random: 0.5,
        taskRefusal: true,
        refusals,
      });
      if (decision.kind === 'reject') break;
      expect(decision).toMatchObject({ kind: 'retry', refused: true });
      if (decision.kind === 'retry') now = decision.at;
      requests.push(now);
    }
    expect(requests).toHaveLength(6);
    expect(now - createdAt).toBeLessThanOrEqual(90_000);
    const platforms = decideRetry(defaultRetryPolicy, { failure: unknown, attempts: 9, createdAt, now, random: 0.5, refusals: 9 });
    expect(platforms).toMatchObject({ kind: 'retry' });
    expect(platforms).not.toHaveProperty('refused');
  });

  it("counts a refusal judged the platform's before anything vouched for the credential: six tries in all on a fresh deployment", () => {
    const unknown: UpstreamFailure = { kind: 'unknown_task', status: 404, detail: 'task_not_found' };
    // The first try leaves before the credential's first accepted update; the five after it come once one vouches.
    const judged = [false, true, true, true, true, true];
    let now = createdAt;
    const requests = [now];
    for (const [refusals, taskRefusal] of judged.entries()) {
      const decision = decideRetry(defaultRetryPolicy, {
        failure: unknown,
        attempts: refusals,
        createdAt,
        now,
        random: 0.5,
        taskRefusal,
        taskConfirmed: false,
        refusals,
      });
      if (decision.kind === 'reject') break;
      expect(decision).toMatchObject({ kind: 'retry', refused: true });
      if (decision.kind === 'retry') now = decision.at;
      requests.push(now);
    }
    // At 0, 5, 15, 30, 50 and 75 s, as for a task refused on a deployment that had delivered before.
    expect(requests.map((at) => (at - createdAt) / 1000)).toEqual([0, 5, 15, 30, 50, 75]);
  });

  it("never rejects a task while every refusal is the platform's, and counts none sent behind an open circuit or of a task accepted before", () => {
    const forbidden: UpstreamFailure = { kind: 'forbidden', status: 403, detail: 'permission_denied' };
    const platforms = (refusals: number, extra: { held?: boolean; taskConfirmed?: boolean } = {}) =>
      decideRetry(defaultRetryPolicy, {
        failure: forbidden,
        attempts: refusals,
        createdAt,
        now: createdAt,
        random: 0.5,
        taskConfirmed: false,
        refusals,
        ...extra,
      });
    expect(platforms(4)).toMatchObject({ kind: 'retry', refused: true, delayMs: 25_000 });
    // Past the last wait, only a refusal judged the task's own may reject: the platform's is retried, uncounted.
    expect(platforms(5)).toMatchObject({ kind: 'retry' });
    expect(platforms(5)).not.toHaveProperty('refused');
    expect(platforms(0, { held: true })).not.toHaveProperty('refused');
    expect(platforms(0, { taskConfirmed: true })).not.toHaveProperty('refused');
  });

  it('retries a 403 (a permission the role lacks) instead of making it a dead letter', () => {
    const forbidden: UpstreamFailure = { kind: 'forbidden', status: 403, detail: 'permission_denied' };
    expect(decide(forbidden, 0)).toMatchObject({ kind: 'retry' });
  });

  it('never gives up on an update held behind an open circuit: the platform is at fault, not the record', () => {
    const dayAndMore = createdAt + defaultRetryPolicy.giveUpAfterMs + 60_000;
    expect(decide(serverError, 50, dayAndMore)).toMatchObject({ kind: 'dead' });
    const held = decideRetry(defaultRetryPolicy, {
      failure: serverError,
      attempts: 50,
      createdAt,
      now: dayAndMore,
      random: 0.5,
      held: true,
    });
    expect(held).toMatchObject({ kind: 'retry' });
  });

  it('turns a permanent 4xx into a dead letter at once, with the reason', () => {
    const rejected: UpstreamFailure = { kind: 'permanent', reason: 'rejected', status: 422, detail: '{"error":"bad"}' };
    expect(decide(rejected, 0)).toEqual({ kind: 'dead', reason: 'rejected (HTTP 422): {"error":"bad"}' });
  });

  it('keeps retrying credential problems, which an operator can fix', () => {
    const refused: UpstreamFailure = { kind: 'auth_failed', reason: 'credentials_rejected', status: 401, detail: '' };
    expect(decide(refused, 5)).toMatchObject({ kind: 'retry' });
    expect(decide({ kind: 'token_rejected', status: 401, detail: '' }, 5)).toMatchObject({ kind: 'retry' });
  });

  it('gives up after about a day', () => {
    const almostADay = createdAt + 23 * 60 * 60_000;
    expect(decide(serverError, 150, almostADay, 0)).toMatchObject({ kind: 'retry' });
    const later = createdAt + 24 * 60 * 60_000 + 1;
    expect(decide(serverError, 160, later, 0)).toMatchObject({
      kind: 'dead',
      reason: expect.stringContaining('gave up after 161 attempts'),
    });
  });
});
