import { randomBytes } from 'node:crypto';
import type { EmulatorClock } from './emulator-clock';

export interface IssuedToken {
  token: string;
  key: string;
  issuedAtMs: number;
  expiresAtMs: number;
}

export type TokenCheck = 'valid' | 'expired' | 'unknown';

/** Above this many tokens, issuing one first forgets the expired ones, so a client that never caches stays bounded. */
const PRUNE_ABOVE = 1000;

/**
 * Bearer tokens: random opaque strings (spec 4.1 shows no format), valid for the configured lifetime (spec 4.1 and
 * 8: 60 minutes) judged on the emulator's clock, so a test can move the clock instead of waiting.
 */
export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(
    private readonly clock: Pick<EmulatorClock, 'now'>,
    readonly lifetimeSeconds: number,
  ) {}

  issue(key: string): IssuedToken {
    const now = this.clock.now();
    if (this.tokens.size >= PRUNE_ABOVE) this.pruneExpired(now);
    const issued: IssuedToken = {
      token: randomBytes(32).toString('base64url'),
      key,
      issuedAtMs: now,
      expiresAtMs: now + this.lifetimeSeconds * 1000,
    };
    this.tokens.set(issued.token, issued);
    return issued;
  }

  check(token: string): TokenCheck {
    const issued = this.tokens.get(token);
    if (issued === undefined) return 'unknown';
    return this.clock.now() < issued.expiresAtMs ? 'valid' : 'expired';
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
