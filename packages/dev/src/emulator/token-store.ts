import { randomBytes } from 'node:crypto';
import type { EmulatorClock } from './emulator-clock.ts';
import type { EmulatorCredential } from './emulator-options.ts';

export interface IssuedToken {
  token: string;
  /** The Key the token was issued for, so a request made with it can be named in the request log. */
  key: string;
  /** The company of that credential; undefined for a partner-wide one. Decides which tasks the token may update. */
  companyUuid: string | undefined;
  issuedAtMs: number;
  expiresAtMs: number;
  /** Its Key was deleted (docs/platform.md#authentication): the token is no longer accepted, whatever its expiry. */
  revoked: boolean;
}

export type TokenCheck = 'valid' | 'expired' | 'revoked' | 'unknown';

/** Above this many tokens, issuing one first forgets the expired ones, so a client that never caches stays bounded. */
const PRUNE_ABOVE = 1000;

/**
 * Bearer tokens: random opaque strings (docs/platform.md#token shows no format), valid for the configured lifetime (docs/platform.md#token and
 * 8: 60 minutes) judged on the emulator's clock, so a test can move the clock instead of waiting.
 */
export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(
    private readonly clock: Pick<EmulatorClock, 'now'>,
    readonly lifetimeSeconds: number,
  ) {}

  issue(credential: Pick<EmulatorCredential, 'key' | 'companyUuid'>): IssuedToken {
    const now = this.clock.now();
    if (this.tokens.size >= PRUNE_ABOVE) this.pruneExpired(now);
    const issued: IssuedToken = {
      token: randomBytes(32).toString('base64url'),
      key: credential.key,
      companyUuid: credential.companyUuid,
      issuedAtMs: now,
      expiresAtMs: now + this.lifetimeSeconds * 1000,
      revoked: false,
    };
    this.tokens.set(issued.token, issued);
    return issued;
  }

  /** The token as issued, whatever its state now; undefined for one this emulator never issued (or forgot). */
  find(token: string): IssuedToken | undefined {
    return this.tokens.get(token);
  }

  check(token: string): TokenCheck {
    const issued = this.tokens.get(token);
    if (issued === undefined) return 'unknown';
    if (issued.revoked) return 'revoked';
    return this.clock.now() < issued.expiresAtMs ? 'valid' : 'expired';
  }

  /**
   * Revokes every token issued for `key` and returns how many. They are marked rather than forgotten, so a Key added
   * again later does not bring its old tokens back, and their refusal can say why.
   */
  revokeKey(key: string): number {
    let revoked = 0;
    for (const issued of this.tokens.values()) {
      if (issued.key !== key || issued.revoked) continue;
      issued.revoked = true;
      revoked += 1;
    }
    return revoked;
  }

  /** The `expireToken` fault: the token is expired from now on, so the client must renew it. */
  expire(token: string): boolean {
    const issued = this.tokens.get(token);
    if (issued === undefined) return false;
    issued.expiresAtMs = Math.min(issued.expiresAtMs, this.clock.now());
    return true;
  }

  get size(): number {
    return this.tokens.size;
  }

  clear(): void {
    this.tokens.clear();
  }

  private pruneExpired(now: number): void {
    for (const [token, issued] of this.tokens) if (issued.expiresAtMs <= now) this.tokens.delete(token);
  }
}
