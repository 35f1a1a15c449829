import type { ZodMiniType } from 'zod/mini';
import { apiErrorFrom, networkError } from '@partner-task-kit/page/internal';

/**
 * A plain JSON call for the preview's own requests (the preview config and the emulator's control API): no session,
 * the answer parsed with `schema`, a failure thrown as an ApiError with the server's code and message.
 */
export async function jsonRequest<T>(method: 'GET' | 'POST' | 'DELETE', path: string, schema: ZodMiniType<T>, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      credentials: 'omit',
      cache: 'no-store',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (cause) {
    throw networkError(cause);
  }
  if (!response.ok) throw await apiErrorFrom(response);
  return schema.parse(await response.json());
}
