import { hkdfSync } from 'node:crypto';
import { CompactEncrypt, compactDecrypt } from 'jose';
import { apiError } from '../api-error.ts';
import { FEED_START, type ChangeMarker } from '../store/task-changes.repository.ts';

/**
 * The feed's cursor is opaque to partners: its form may change, and a partner keeps and sends back exactly what it
 * was given. Its marker counts the writes of every company on the deployment, so it is sealed (JWE, dir + A256GCM,
 * with jose): a tenant's cursor must not tell it how busy the other tenants are. The key is derived from the session
 * secret (HKDF), so every instance reads every other's cursors and they survive restarts.
 *
 * A cursor of the earlier plain form (base64url of `v1.<xid>.<seq>`) is still read, so a partner's stored cursor
 * stays good across the upgrade; the answer gives a sealed one.
 */
export interface CursorSeal {
  seal(marker: ChangeMarker): Promise<string>;
  open(cursor: string | undefined): Promise<ChangeMarker>;
}

const MARKER = /^v1\.(\d{1,15})\.(\d{1,15})$/;

export function cursorSeal(secret: string): CursorSeal {
  const key = new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), 'partner-task-kit changes feed cursor', 32));
  const encoder = new TextEncoder();
  return {
    seal: (marker) =>
      new CompactEncrypt(encoder.encode(`v1.${marker.xid}.${marker.seq}`)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(key),
    open: async (cursor) => {
      if (cursor === undefined || cursor === '') return FEED_START;
      const plain = cursor.includes('.') ? await opened(cursor, key) : Buffer.from(cursor, 'base64url').toString();
      const match = plain === undefined ? null : MARKER.exec(plain);
      if (!match) throw invalidCursor();
      return { xid: Number(match[1]), seq: Number(match[2]) };
    },
  };
}

async function opened(cursor: string, key: Uint8Array): Promise<string | undefined> {
  try {
    const { plaintext } = await compactDecrypt(cursor, key, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    return new TextDecoder().decode(plaintext);
  } catch {
    return undefined; // forged, truncated, or sealed under another secret
  }
}

function invalidCursor() {
  return apiError(
    'invalid_cursor',
    'updatedAfter is not a cursor this API gave: send a `nextCursor` back as it was, or none to start over.',
    'updatedAfter',
  );
}
