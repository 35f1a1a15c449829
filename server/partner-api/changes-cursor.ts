import { apiError } from '../api-error';
import { FEED_START, type ChangeMarker } from '../store/task-changes.repository';

/**
 * The feed's cursor is opaque to partners (base64url of `v1.<xid>.<seq>`): its form may change, and a partner keeps
 * and sends back exactly what it was given.
 */
export function encodeCursor(marker: ChangeMarker): string {
  return Buffer.from(`v1.${marker.xid}.${marker.seq}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): ChangeMarker {
  if (cursor === undefined || cursor === '') return FEED_START;
  const match = /^v1\.(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match)
    throw apiError('invalid_cursor', 'updatedAfter is not a cursor this API gave: send a `nextCursor` back as it was.', 'updatedAfter');
  return { xid: Number(match[1]), seq: Number(match[2]) };
}
