import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signSessionToken, verifySessionToken } from '../../server/session/session-token';

const secret = 'unit-test-secret-of-at-least-32-characters';
const context = {
  wxWorkerUuid: '11111111-1111-4111-8111-111111111111',
  wxAssignedTaskUuid: '22222222-2222-4222-8222-222222222222',
  wxTaskFlowUuid: '33333333-3333-4333-8333-333333333333',
  wxCompanyUuid: '44444444-4444-4444-8444-444444444444',
};

describe('session tokens', () => {
  it('round-trips the four context values and the expiry', () => {
    const token = signSessionToken(secret, context, 2_000);
    expect(verifySessionToken(secret, token, 1_999)).toEqual({ ok: true, claims: { context, expiresAt: 2_000 } });
  });

  it('expires at expiresAt exactly', () => {
    expect(verifySessionToken(secret, signSessionToken(secret, context, 2_000), 2_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token signed with another secret', () => {
    const token = signSessionToken('another-secret-of-at-least-32-characters', context, 2_000);
    expect(verifySessionToken(secret, token, 0)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses any change to the payload, even one character', () => {
    const token = signSessionToken(secret, context, 2_000);
    const [version, payload = '', signature] = token.split('.');
    const flipped = payload.slice(0, 10) + (payload[10] === 'A' ? 'B' : 'A') + payload.slice(11);
    expect(verifySessionToken(secret, `${version}.${flipped}.${signature}`, 0).ok).toBe(false);
  });

  it.each(['', 'v1', 'v1.a', 'v2.a.b', 'v1.a.b.c', 'v1.!!.??'])('refuses the malformed token %j', (token) => {
    expect(verifySessionToken(secret, token, 0).ok).toBe(false);
  });

  it('refuses a correctly signed payload that is not the expected shape', () => {
    const payload = Buffer.from(JSON.stringify({ a: 1 })).toString('base64url');
    const signature = createHmac('sha256', secret).update(`v1.${payload}`).digest('base64url');
    expect(verifySessionToken(secret, `v1.${payload}.${signature}`, 0)).toEqual({ ok: false, reason: 'malformed' });
  });
});
