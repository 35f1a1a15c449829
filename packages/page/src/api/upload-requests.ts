import { queryOptions } from '@tanstack/react-query';
import { ASSIGNED_TASK_HEADER, taskUploadsSchema, type TaskUploads } from '@partner-task-kit/workflow/contract';
import type { ApiClient } from './api-client.ts';
import { apiErrorFrom, networkError } from './api-error.ts';
import { taskKeys } from './query-keys.ts';

/**
 * The uploads' requests besides tus's own (docs/api.md#uploads), with the session's token: what the server holds of
 * the attempt's uploads, and a completed upload's bytes. Imported only by the file field's modules, as tus is.
 */
export const UPLOADS_PATH = '/api/task/uploads';

/** GET /api/task/uploads: each field's newest finished upload that no saved step names yet. */
export async function getTaskUploads(client: ApiClient): Promise<TaskUploads> {
  let response = await authorizedFetch(client, UPLOADS_PATH, { method: 'GET' }, false);
  if (response.status === 401) response = await authorizedFetch(client, UPLOADS_PATH, { method: 'GET' }, true);
  if (!response.ok) throw await apiErrorFrom(response);
  return taskUploadsSchema.parse(await response.json());
}

/** GET /api/task/uploads/:id: a completed upload of this task's attempt, as stored. */
async function getUploadedFile(client: ApiClient, uploadId: string): Promise<Blob> {
  const path = `${UPLOADS_PATH}/${encodeURIComponent(uploadId)}`;
  let response = await authorizedFetch(client, path, { method: 'GET' }, false);
  if (response.status === 401) response = await authorizedFetch(client, path, { method: 'GET' }, true);
  if (!response.ok) throw await apiErrorFrom(response);
  return response.blob();
}

export function uploadedFileQueryOptions(client: ApiClient, uploadId: string) {
  return queryOptions({
    queryKey: taskKeys.uploadedFile(client.context, uploadId),
    queryFn: () => getUploadedFile(client, uploadId),
    // A completed upload never changes (docs/api.md#uploads).
    staleTime: Infinity,
  });
}

/** tus's HEAD of an upload: where the server has it. */
export function tusHead(client: ApiClient, url: string): Promise<Response> {
  return authorizedFetch(client, url, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } }, false);
}

async function authorizedFetch(client: ApiClient, url: string, init: { method: string; headers?: Record<string, string> }, renew: boolean) {
  const token = await client.sessionToken({ renew });
  try {
    return await fetch(url, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${token}`, [ASSIGNED_TASK_HEADER]: client.context.wxAssignedTaskUuid },
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (cause) {
    throw networkError(cause);
  }
}
