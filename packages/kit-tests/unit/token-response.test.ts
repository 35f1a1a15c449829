import { describe, expect, it } from 'vitest';
import { readTokenResponse } from '@partner-task-kit/server/upstream/token-response';

const requestedAt = Date.parse('2026-11-22T10:00:00.000Z');

describe('readTokenResponse (spec 4.1: response shape not shown)', () => {
  it('reads the OAuth 2.0 standard fields', () => {
    expect(readTokenResponse({ access_token: 'abc', expires_in: 3600, token_type: 'Bearer' }, requestedAt)).toEqual({
      ok: true,
      accessToken: 'abc',
      expiresInMs: 3_600_000,
    });
  });

  it('reads camelCase variants and a lifetime given as a string', () => {
    expect(readTokenResponse({ accessToken: 'abc', expiresIn: '120' }, requestedAt)).toEqual({
      ok: true,
      accessToken: 'abc',
      expiresInMs: 120_000,
    });
  });

  it('reads a token wrapped in a data envelope', () => {
    expect(readTokenResponse({ data: { token: 'abc', expires_in: 60 } }, requestedAt)).toEqual({
      ok: true,
      accessToken: 'abc',
      expiresInMs: 60_000,
    });
  });

  it('turns an absolute expiry (ISO date or epoch seconds) into a lifetime', () => {
    const iso = readTokenResponse({ access_token: 'a', expires_at: '2026-11-22T10:30:00.000Z' }, requestedAt);
    const epoch = readTokenResponse({ access_token: 'a', expiresAt: requestedAt / 1000 + 900 }, requestedAt);
    expect(iso).toMatchObject({ expiresInMs: 30 * 60_000 });
    expect(epoch).toMatchObject({ expiresInMs: 900_000 });
  });

  it('leaves the lifetime unknown when none is given, so the 60-minute rule applies', () => {
    expect(readTokenResponse({ access_token: 'abc' }, requestedAt)).toEqual({ ok: true, accessToken: 'abc', expiresInMs: undefined });
  });

  it('reports the keys received, never their values, when no token field is recognised', () => {
    const result = readTokenResponse({ jwt: 'secret-value', ttl: 3600, meta: { issuer: 'x' } }, requestedAt);
    expect(result).toEqual({ ok: false, keys: ['jwt', 'ttl', 'meta', 'meta.issuer'] });
    expect(JSON.stringify(result)).not.toContain('secret-value');
  });

  it('describes a body that is not an object', () => {
    expect(readTokenResponse('plain text', requestedAt)).toEqual({ ok: false, keys: ['(a string)'] });
    expect(readTokenResponse(undefined, requestedAt)).toEqual({ ok: false, keys: ['(a undefined)'] });
  });
});
