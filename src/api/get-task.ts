import { queryOptions } from '@tanstack/react-query';
import { taskViewSchema, type TaskView } from '../contract/task-view';
import type { ApiClient } from './api-client';
import { taskKeys } from './query-keys';

function getTask(client: ApiClient): Promise<TaskView> {
  return client.call('GET', '/api/task', taskViewSchema);
}

/** Seeded by the session answer and by every mutation; fetched again only when invalidated. */
export function taskQueryOptions(client: ApiClient) {
  return queryOptions({
    queryKey: taskKeys.view(client.context),
    queryFn: () => getTask(client),
    staleTime: Infinity,
  });
}
