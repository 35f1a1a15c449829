import { createHash, randomBytes } from 'node:crypto';

/** Recognisable in a log, a config file or a secret scanner's rules. */
const PARTNER_KEY_PREFIX = 'ptk_';

/** How much of a key `list` shows: the prefix and 8 more characters (48 of its 256 random bits). */
const SHOWN_LENGTH = PARTNER_KEY_PREFIX.length + 8;

/** A new key: 256 random bits, base64url, shown once; only its hash is stored. */
export function newPartnerKey(): { key: string; prefix: string; keyHash: string } {
  const key = `${PARTNER_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, SHOWN_LENGTH), keyHash: hashPartnerKey(key) };
}

/**
 * SHA-256, unsalted and fast, is enough: a key holds 256 random bits, so no dictionary or brute force can reach it
 * from its hash, which a slow password hash exists to resist.
 */
export function hashPartnerKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
