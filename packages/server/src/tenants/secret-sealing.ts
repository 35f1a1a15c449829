import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Tenants' Secrets at rest: AES-256-GCM under CREDENTIALS_KEY, a fresh 96-bit nonce per seal. The company and the Key
 * are authenticated with it (additional data), so a sealed Secret copied onto another tenant's row does not open.
 * Stored as `v1.<base64 of nonce | tag | ciphertext>`; the version lets a later format coexist.
 */
const VERSION = 'v1.';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Whose a sealed secret is: a tenant's API Secret (with its Key), or the secret of a company's partner webhook. */
export type SealedFor = { companyUuid: string; apiKey: string } | { companyUuid: string; partnerWebhook: true };

export function sealSecret(secret: string, key: Buffer, owner: SealedFor): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(additionalData(owner));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/** Throws when the key is not the one that sealed it (or the row was altered): the caller names CREDENTIALS_KEY. */
export function openSecret(sealed: string, key: Buffer, owner: SealedFor): string {
  if (!sealed.startsWith(VERSION)) throw new Error('not a sealed Secret of a known format');
  const bytes = Buffer.from(sealed.slice(VERSION.length), 'base64');
  const nonce = bytes.subarray(0, NONCE_BYTES);
  const tag = bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(additionalData(owner));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** A webhook's is three items, an API Secret's two: a value sealed for one kind never opens as the other. */
function additionalData(owner: SealedFor): Buffer {
  const items = 'apiKey' in owner ? [owner.companyUuid, owner.apiKey] : [owner.companyUuid, null, 'partner-webhook'];
  return Buffer.from(JSON.stringify(items), 'utf8');
}
