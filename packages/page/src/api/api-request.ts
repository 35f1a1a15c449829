import { ASSIGNED_TASK_HEADER, type TaskContext } from '@partner-task-kit/workflow/contract';

/**
 * The one shape of every API request (api-client.ts, early-session.ts): JSON, no cookies (docs/decisions/005-no-cookies-session-tokens.md: they
 * fail in third-party iframes), never cached, and the assigned task named in a header for the server's per-task rate
 * limit.
 */
export function apiRequestInit(context: TaskContext, method: string, body: unknown, token?: string): RequestInit {
  const headers: Record<string, string> = { accept: 'application/json', [ASSIGNED_TASK_HEADER]: context.wxAssignedTaskUuid };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return { method, headers, credentials: 'omit', cache: 'no-store', ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
}
