import type { FastifyRequest } from 'fastify';
import { UPLOAD_ID_PATTERN } from '@partner-task-kit/workflow';
import { apiError } from '../api-error.ts';

export const UPLOADS_PATH = '/api/task/uploads';

/**
 * The upload a request acts on, read once from its path (docs/api.md#uploads): undefined for the collection
 * (`POST`, `OPTIONS`). Only the one form of each address is taken, exactly as the route matched it: tus reads an id
 * from the end of the whole URL, query string included, so `…/uploads/<own id>?x=/<another id>` would pass the route's
 * check of the path and act on the other upload; a percent-encoded, doubled or trailing form would be one more address
 * of the same upload for a log to miss. Every layer after this one is handed the id returned here.
 */
export function uploadIdOfRequest(request: FastifyRequest): string | undefined {
  const url = request.raw.url ?? '';
  if (url.includes('?') || url.includes('#')) throw apiError('bad_request', "An upload's address takes no query string.");
  const { id } = request.params as { id?: string };
  if (id === undefined) {
    if (url !== UPLOADS_PATH) throw apiError('not_found', 'No such upload for this task.', 'uploadId');
    return undefined;
  }
  if (!UPLOAD_ID_PATTERN.test(id) || url !== `${UPLOADS_PATH}/${id}`)
    throw apiError('not_found', 'No such upload for this task.', 'uploadId');
  return id;
}
