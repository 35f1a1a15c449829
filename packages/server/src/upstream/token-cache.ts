import type { Clock } from '../clock.ts';
import type { AuthFailure, RetryableFailure } from './upstream-outcome.ts';

/** docs/platform.md#token: a token is valid 60 minutes; that is our assumption when the response gives no lifetime. */
const DEFAULT_TOKEN_LIFETIME_MS = 60 * 60_000;
/** Renew about five minutes before expiry so no request leaves with a token about to lapse in flight. */
const RENEW_BEFORE_EXPIRY_MS = 5 * 60_000;
/**
 * After a failed token request, callers get that failure without a new request for this long: during an outage or
 * with a revoked key, a backlog of updates must not turn into a stream of token requests (docs/platform.md#limits: limits not shown).
 */
const FAILURE_COOLDOWN_MS = 5_000;

interface IssuedToken {
  accessToken: string;
  /** Lifetime stated by the token endpoint, when it states one. */
  expiresInMs: number | undefined;
}

export type TokenFetchResult = { ok: true; token: IssuedToken } | { ok: false; failure: RetryableFailure | AuthFailure };

type TokenResult = { ok: true; accessToken: string } | { ok: false; failure: RetryableFailure | AuthFailure };

export interface TokenCache {
  /** A token good for at least the renewal margin; concurrent callers share one token request. */
  get(): Promise<TokenResult>;
  /** Drops `accessToken` if it is still the cached one (after a 401), so the next `get` renews exactly once. */
  invalidate(accessToken: string): void;
  /** How many token requests this cache has made: a metric, and what tests count. */
  readonly requestCount: number;
}

/**
 * How long before its expiry a token of `lifetimeMs` is renewed: RENEW_BEFORE_EXPIRY_MS, but at most a tenth of the
 * lifetime, so a short-lived token (say 60 s) is not renewed on every call.
 */
function renewalMarginMs(lifetimeMs: number, renewBeforeMs = RENEW_BEFORE_EXPIRY_MS): number {
  return Math.min(renewBeforeMs, lifetimeMs / 10);
}

interface CachedToken {
  accessToken: string;
  expiresAt: number;
  renewAt: number;
}

export interface TokenCacheOptions {
  fetchToken: () => Promise<TokenFetchResult>;
  clock: Clock;
  renewBeforeMs?: number;
  defaultLifetimeMs?: number;
  failureCooldownMs?: number;
}

/**
 * One cache per credential. A token inside its renewal window is still served while a single background renewal
 * runs; an expired or missing one makes callers wait for that same renewal (single flight).
 */
export function createTokenCache({
  fetchToken,
  clock,
  renewBeforeMs = RENEW_BEFORE_EXPIRY_MS,
  defaultLifetimeMs = DEFAULT_TOKEN_LIFETIME_MS,
  failureCooldownMs = FAILURE_COOLDOWN_MS,
}: TokenCacheOptions): TokenCache {
  let cached: CachedToken | undefined;
  let inFlight: Promise<TokenResult> | undefined;
  let lastFailure: { at: number; result: TokenResult & { ok: false } } | undefined;
  let requestCount = 0;

  const coolingDown = (now: number) => lastFailure !== undefined && now - lastFailure.at < failureCooldownMs;

  function renew(): Promise<TokenResult> {
    inFlight ??= (async () => {
      const requestedAt = clock.now();
      requestCount += 1;
      try {
        const result = await fetchToken();
        if (!result.ok) {
          lastFailure = { at: clock.now(), result };
          return result;
        }
        lastFailure = undefined;
        const lifetime = result.token.expiresInMs ?? defaultLifetimeMs;
        const margin = renewalMarginMs(lifetime, renewBeforeMs);
        // Measured from when we asked, not when the answer came: the server's clock started before ours stopped.
        cached = {
          accessToken: result.token.accessToken,
          expiresAt: requestedAt + lifetime,
          renewAt: requestedAt + lifetime - margin,
        };
        return { ok: true, accessToken: cached.accessToken };
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  }

  return {
    async get() {
      const now = clock.now();
      if (cached && now < cached.expiresAt) {
        if (now >= cached.renewAt && !inFlight && !coolingDown(now)) {
          // Served now; a failed background renewal is retried after the cooldown, while the token is still valid.
          void renew();
        }
        return { ok: true, accessToken: cached.accessToken };
      }
      if (!inFlight && coolingDown(now)) return lastFailure!.result;
      return renew();
    },
    invalidate(accessToken) {
      if (cached?.accessToken === accessToken) cached = undefined;
    },
    get requestCount() {
      return requestCount;
    },
  };
}
