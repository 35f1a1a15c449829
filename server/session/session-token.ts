import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { TaskContext } from '../../src/contract/task-context';

/**
 * DESIGN decision 5: a session is a token, not a cookie. It is `v1.<payload>.<signature>`: the payload is the four
 * context values (spec 2.5) and an expiry, base64url JSON; the signature is HMAC-SHA256 over `v1.<payload>` with
 * SESSION_SECRET. Nothing in it is secret, everything in it is tamper-evident.
 */
const VERSION = 'v1';

/** Short enough that a leaked token is soon useless; the page renews well before. */
export const SESSION_TTL_MS = 15 * 60 * 1000;

const claimsSchema = z.object({
  w: z.string(),
  a: z.string(),
  f: z.string(),
  c: z.string(),
  exp: z.number().int(),
});

export interface SessionClaims {
  context: TaskContext;
  expiresAt: number;
}

export type TokenCheck = { ok: true; claims: SessionClaims } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

export function signSessionToken(secret: string, context: TaskContext, expiresAt: number): string {
  const payload = Buffer.from(
    JSON.stringify({ w: context.wxWorkerUuid, a: context.wxAssignedTaskUuid, f: context.wxTaskFlowUuid, c: context.wxCompanyUuid, exp: expiresAt }),
  ).toString('base64url');
  return `${VERSION}.${payload}.${sign(secret, `${VERSION}.${payload}`).toString('base64url')}`;
}

export function verifySessionToken(secret: string, token: string, now: number): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return { ok: false, reason: 'malformed' };
  const [, payload = '', signature = ''] = parts;
  const given = Buffer.from(signature, 'base64url');
  const expected = sign(secret, `${VERSION}.${payload}`);
  // Constant-time comparison: a byte-by-byte early exit would let an attacker find a valid signature by timing.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const claims = claimsSchema.safeParse(decoded);
  if (!claims.success) return { ok: false, reason: 'malformed' };
  if (claims.data.exp <= now) return { ok: false, reason: 'expired' };
  const { w, a, f, c, exp } = claims.data;
  return { ok: true, claims: { context: { wxWorkerUuid: w, wxAssignedTaskUuid: a, wxTaskFlowUuid: f, wxCompanyUuid: c }, expiresAt: exp } };
}

function sign(secret: string, text: string): Buffer {
  return createHmac('sha256', secret).update(text).digest();
}
