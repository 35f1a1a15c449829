import { queryOptions } from '@tanstack/react-query';
import { taskUpdatesResponseSchema, type TaskUpdatesResponse } from '../contract/task-updates';
import type { ApiClient } from './api-client';
import { taskKeys } from './query-keys';

/** GET /api/task/updates: what this task sent or will send to the platform, with delivery states. */
function getTaskUpdates(client: ApiClient): Promise<TaskUpdatesResponse> {
  return client.call('GET', '/api/task/updates', taskUpdatesResponseSchema);
}

export function taskUpdatesQueryOptions(client: ApiClient) {
  return queryOptions({ queryKey: taskKeys.updates(client.context), queryFn: () => getTaskUpdates(client) });
}
