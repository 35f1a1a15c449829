import { describe, expect, it } from 'vitest';
import { classifyFailureStatus, parseRetryAfter } from '@partner-task-kit/server/upstream/upstream-outcome';

const now = Date.parse('2026-11-22T10:00:00.000Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => expect(parseRetryAfter('7', now)).toBe(7000));
  it('reads an HTTP-date relative to now', () => expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000));
  it('treats a date in the past as no wait', () => expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0));
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('classifyFailureStatus', () => {
  const headers = (entries: Record<string, string> = {}) => new Headers(entries);

  it('retries a 429 and keeps its Retry-After', () => {
    expect(classifyFailureStatus(429, headers({ 'retry-after': '3' }), '', now)).toMatchObject({
      kind: 'retryable',
      reason: 'rate_limited',
      retryAfterMs: 3000,
    });
  });

  it('retries 5xx and 408', () => {
    expect(classifyFailureStatus(502, headers(), '', now)).toMatchObject({ kind: 'retryable', reason: 'server_error' });
    expect(classifyFailureStatus(408, headers(), '', now)).toMatchObject({ kind: 'retryable', reason: 'request_timeout' });
  });

  it('tells a 403 (a permission the role lacks, spec 5.6) apart from a refused record', () => {
    expect(classifyFailureStatus(403, headers(), '{"error":"permission_denied"}', now)).toEqual({
      kind: 'forbidden',
      status: 403,
      detail: '{"error":"permission_denied"}',
    });
  });

  it('gives up on other 4xx and keeps the start of the body for the operator', () => {
    const failure = classifyFailureStatus(422, headers(), 'x'.repeat(2000), now);
    expect(failure).toMatchObject({ kind: 'permanent', reason: 'rejected', status: 422 });
    expect(failure.detail.length).toBeLessThanOrEqual(501);
  });
});
