import { randomUUID, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { TaskContext } from '@partner-task-kit/workflow/contract';

/**
 * docs/decisions/005-no-cookies-session-tokens.md: a session is a token, not a cookie. It is a compact JWT signed HS256 with SESSION_SECRET: the
 * claims are the four context values (docs/platform.md#task-context) and the expiry. Nothing in it is secret, everything in it is
 * tamper-evident, and any JWT library can read it.
 *
 * Expiry is kept to the millisecond, as the session answer states it (`expiresAt`): the standard `exp` is whole
 * seconds, so it is rounded up (never earlier than the real expiry, for any tool that reads it) and the exact instant
 * travels in the private claim `xms`, which decides.
 */

/** Short enough that a leaked token is soon useless; the page renews well before. */
export const SESSION_TTL_MS = 15 * 60 * 1000;

/** Only what we sign: pinned, so a token naming `none` or another algorithm is refused before its claims are read. */
const ALGORITHM = 'HS256';

const claimsSchema = z.object({
  w: z.string(),
  a: z.string(),
  f: z.string(),
  c: z.string(),
  exp: z.number().int(),
  xms: z.number().int(),
});

interface SessionClaims {
  context: TaskContext;
  expiresAt: number;
}

export type TokenCheck = { ok: true; claims: SessionClaims } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

/**
 * The secret imported once into WebCrypto, where jose signs and verifies: given the raw bytes, jose imports them again
 * on every call, a good part of a verify (measured one at a time, with the bytes and with the key kept). An app keeps
 * one secret for its life; keyed by the secret, so apps side by side (tests) each find theirs, and bounded, so secrets
 * made per start (emulator mode) cannot pile up.
 */
const importedKeys = new Map<string, Promise<webcrypto.CryptoKey>>();
const MAX_IMPORTED_KEYS = 8;

function keyOf(secret: string): Promise<webcrypto.CryptoKey> {
  let key = importedKeys.get(secret);
  if (!key) {
    if (importedKeys.size >= MAX_IMPORTED_KEYS) importedKeys.clear();
    key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    importedKeys.set(secret, key);
  }
  return key;
}

export async function signSessionToken(secret: string, context: TaskContext, expiresAt: number): Promise<string> {
  return (
    new SignJWT({
      w: context.wxWorkerUuid,
      a: context.wxAssignedTaskUuid,
      f: context.wxTaskFlowUuid,
      c: context.wxCompanyUuid,
      xms: expiresAt,
    })
      .setProtectedHeader({ alg: ALGORITHM })
      // Each session its own: two sessions of one context opened in the same second still differ (per-session limits).
      .setJti(randomUUID())
      .setExpirationTime(Math.ceil(expiresAt / 1000))
      .sign(await keyOf(secret))
  );
}

/** `now` is the injected clock's time (ms): jose checks `exp` against it too, never against the wall clock. */
export async function verifySessionToken(secret: string, token: string, now: number): Promise<TokenCheck> {
  const verified = verifiedTokens.get(secret)?.get(token);
  if (verified !== undefined) return verified.expiresAt > now ? { ok: true, claims: verified } : { ok: false, reason: 'expired' };
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, await keyOf(secret), { algorithms: [ALGORITHM], currentDate: new Date(now) }));
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) return { ok: false, reason: 'malformed' };
  const { w, a, f, c, xms } = claims.data;
  if (xms <= now) return { ok: false, reason: 'expired' };
  const session = { context: { wxWorkerUuid: w, wxAssignedTaskUuid: a, wxTaskFlowUuid: f, wxCompanyUuid: c }, expiresAt: xms };
  remember(secret, token, session);
  return { ok: true, claims: session };
}

/**
 * A page sends the same token with every call of its session, and checking its signature through WebCrypto was about a
 * tenth of the step endpoint's CPU. A token's signature is checked once per secret; later calls find its claims here
 * (expiry is still checked on every call). Only tokens whose signature held enter it, so forged ones never do; it
 * holds at most MAX_VERIFIED_TOKENS sessions, the oldest leaving first.
 */
const verifiedTokens = new Map<string, Map<string, SessionClaims>>();
const MAX_VERIFIED_TOKENS = 10_000;

function remember(secret: string, token: string, claims: SessionClaims): void {
  let tokens = verifiedTokens.get(secret);
  if (tokens === undefined) {
    if (verifiedTokens.size >= MAX_IMPORTED_KEYS) verifiedTokens.clear();
    tokens = new Map();
    verifiedTokens.set(secret, tokens);
  }
  // Oldest first out (a Map iterates in insertion order): a session's calls come close together.
  if (tokens.size >= MAX_VERIFIED_TOKENS) tokens.delete(tokens.keys().next().value!);
  tokens.set(token, claims);
}

/**
 * jose checks the signature before it reads the claims, so `expired` is only ever said of a token we signed. A token
 * that names another algorithm (`none` included) was not signed by us: a bad signature. Anything that is not a JOSE
 * error is a fault of ours, not of the token, and is thrown on.
 */
function reasonOf(error: unknown): 'malformed' | 'bad_signature' | 'expired' {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JOSEAlgNotAllowed) return 'bad_signature';
  if (error instanceof errors.JOSEError) return 'malformed';
  throw error;
}
