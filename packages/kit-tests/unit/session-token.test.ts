import { createHmac } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signSessionToken, verifySessionToken } from '@partner-task-kit/server/session/session-token';

const secret = 'unit-test-secret-of-at-least-32-characters';
const key = new TextEncoder().encode(secret);
const context = {
  wxWorkerUuid: '11111111-1111-4111-8111-111111111111',
  wxAssignedTaskUuid: '22222222-2222-4222-8222-222222222222',
  wxTaskFlowUuid: '33333333-3333-4333-8333-333333333333',
  wxCompanyUuid: '44444444-4444-4444-8444-444444444444',
};
const claims = { w: context.wxWorkerUuid, a: context.wxAssignedTaskUuid, f: context.wxTaskFlowUuid, c: context.wxCompanyUuid };

describe('session tokens', () => {
  it('round-trips the four context values and the expiry, against the given time rather than the wall clock', async () => {
    // 2 s after 1970: long past for the wall clock, still valid at the injected time.
    const token = await signSessionToken(secret, context, 2_000);
    expect(await verifySessionToken(secret, token, 1_999)).toEqual({ ok: true, claims: { context, expiresAt: 2_000 } });
  });

  it('expires at expiresAt exactly', async () => {
    expect(await verifySessionToken(secret, await signSessionToken(secret, context, 2_000), 2_000)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('keeps the expiry to the millisecond, though the standard exp is in whole seconds', async () => {
    const token = await signSessionToken(secret, context, 2_500);
    // exp is rounded up, so a tool that reads only exp never thinks the session lasts less than it does.
    expect(decodeJwt(token).exp).toBe(3);
    expect(await verifySessionToken(secret, token, 2_499)).toMatchObject({ ok: true, claims: { expiresAt: 2_500 } });
    expect(await verifySessionToken(secret, token, 2_500)).toEqual({ ok: false, reason: 'expired' });
    expect(await verifySessionToken(secret, token, 3_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('is a standard HS256 JWT that any JOSE library verifies with the secret', async () => {
    const token = await signSessionToken(secret, context, 2_000);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256' });
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: new Date(1_000) });
    expect(payload).toMatchObject({ ...claims, exp: 2 });
  });

  it('refuses a token signed with another secret', async () => {
    const token = await signSessionToken('another-secret-of-at-least-32-characters', context, 2_000);
    expect(await verifySessionToken(secret, token, 0)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses any change to the payload, even one character', async () => {
    const [header, payload = '', signature] = (await signSessionToken(secret, context, 2_000)).split('.');
    const flipped = payload.slice(0, 10) + (payload[10] === 'A' ? 'B' : 'A') + payload.slice(11);
    expect(await verifySessionToken(secret, `${header}.${flipped}.${signature}`, 0)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a token that names another algorithm: unsigned (alg none) or HS512 with the same secret', async () => {
    const unsigned = new UnsecuredJWT({ ...claims, xms: 2_000 }).setExpirationTime(2).encode();
    expect(await verifySessionToken(secret, unsigned, 0)).toEqual({ ok: false, reason: 'bad_signature' });
    const hs512 = await new SignJWT({ ...claims, xms: 2_000 }).setProtectedHeader({ alg: 'HS512' }).setExpirationTime(2).sign(key);
    expect(await verifySessionToken(secret, hs512, 0)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it.each(['', 'abc', 'a.b', 'a.b.c.d', '..', '!!.??.**', 'v1.e30.AAAA'])('refuses the malformed token %j', async (token) => {
    expect(await verifySessionToken(secret, token, 0)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses a token of the former v1.<payload>.<hmac> format', async () => {
    const payload = Buffer.from(JSON.stringify({ ...claims, exp: 2_000 })).toString('base64url');
    const signature = createHmac('sha256', secret).update(`v1.${payload}`).digest('base64url');
    expect(await verifySessionToken(secret, `v1.${payload}.${signature}`, 0)).toEqual({ ok: false, reason: 'malformed' });
  });

  it.each([
    ['a payload of another shape', { a: 1 }],
    ['the claims without the exact expiry', claims],
    ['a context value that is not a string', { ...claims, w: 7, xms: 2_000 }],
  ])('refuses a correctly signed token carrying %s', async (_name, payload) => {
    const token = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(2).sign(key);
    expect(await verifySessionToken(secret, token, 0)).toEqual({ ok: false, reason: 'malformed' });
  });
});
