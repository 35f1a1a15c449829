import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
 * keyed by the bytes after `whsec_`. Signed with node:crypto rather than the `standardwebhooks` package: three lines of
 * HMAC need no runtime dependency, and the tests verify them with that package, an implementation we did not write.
 */

const PREFIX = 'whsec_';
/** A secret shorter than this many random bytes is refused at start. */
export const MIN_SECRET_BYTES = 24;

/** A new secret: `whsec_` and the base64 of 32 random bytes, as `echo whsec_$(openssl rand -base64 32)` makes. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The key of a `whsec_` secret, or undefined when it is not one (wrong prefix, not base64, too short). */
export function webhookKeyOf(secret: string): Buffer | undefined {
  if (!secret.startsWith(PREFIX)) return undefined;
  const encoded = secret.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= MIN_SECRET_BYTES ? key : undefined;
}

/**
 * The `webhook-signature` header: one signature per secret, space separated, so a receiver that still holds the old
 * secret during a rotation verifies the message as well as one that holds the new.
 */
export function signWebhook(secrets: readonly string[], message: { id: string; timestampSeconds: number; body: string }): string {
  const signed = `${message.id}.${message.timestampSeconds}.${message.body}`;
  return secrets
    .map((secret) => {
      const key = webhookKeyOf(secret);
      if (key === undefined) throw new Error('a webhook secret is not whsec_ followed by the base64 of enough random bytes');
      return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
    })
    .join(' ');
}
