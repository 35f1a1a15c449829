import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { apiError } from '../api-error.ts';
import type { StoreDb } from '../store/database-schema.ts';
import { findActivePartnerKey, touchPartnerKey } from '../store/partner-keys.repository.ts';
import type { PartnerKey } from '../store/partner-keys.table.ts';
import { hashPartnerKey } from './partner-key-secret.ts';

/** `last used` is written at most this often per key: a sync every few seconds must not write on every request. */
const LAST_USED_INTERVAL_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The partner key the request carries; set by the partner API's onRequest hook. */
    partnerKey: PartnerKey | null;
  }
}

/**
 * Checks `Authorization: Bearer <key>` and names the key's request. A missing key is `missing_token`; a wrong or
 * revoked one is `invalid_token`, alike, so a caller cannot tell a revoked key from one that never existed. Both say
 * `WWW-Authenticate: Bearer` (RFC 6750 section 3).
 */
export function partnerAuthentication(deps: { db: StoreDb; clock: Clock }) {
  const lastTouched = new Map<string, number>();
  return async (request: FastifyRequest, reply: FastifyReply): Promise<PartnerKey> => {
    const header = request.headers.authorization;
    const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
    if (!match) {
      reply.header('www-authenticate', 'Bearer');
      throw apiError('missing_token', 'Send a partner API key as `Authorization: Bearer <key>`.');
    }
    const key = await findActivePartnerKey(deps.db, hashPartnerKey(match[1]!));
    if (!key) {
      reply.header('www-authenticate', 'Bearer error="invalid_token"');
      throw apiError('invalid_token', 'This partner API key is not valid.');
    }
    const now = deps.clock.now();
    if (now - (lastTouched.get(key.id) ?? -Infinity) >= LAST_USED_INTERVAL_MS) {
      lastTouched.set(key.id, now);
      await touchPartnerKey(deps.db, { id: key.id, now, intervalMs: LAST_USED_INTERVAL_MS });
    }
    return key;
  };
}

/** The companies a key may see: its own, or every company (a key made outside tenant mode without `--company`). */
export function companiesOf(key: PartnerKey): ReadonlySet<string> | undefined {
  return key.companyUuid === null ? undefined : new Set([key.companyUuid]);
}
