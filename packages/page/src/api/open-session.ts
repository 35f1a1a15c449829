import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { SessionResponse } from '@partner-task-kit/workflow/contract';
import { SESSION_RENEW_MARGIN_MS, type ApiClient } from './api-client.ts';
import { taskKeys } from './query-keys.ts';
import { storeTaskView } from './task-cache.ts';

async function openSession(client: ApiClient, queryClient: QueryClient): Promise<SessionResponse> {
  const session = await client.openSession();
  storeTaskView(queryClient, client.context, session.task);
  return session;
}

/**
 * POST /api/session as a query: it is idempotent for a given context (the task is created once), and its
 * `refetchInterval` renews the token before it expires while the page is open.
 */
export function sessionQueryOptions(client: ApiClient, queryClient: QueryClient) {
  return queryOptions({
    queryKey: taskKeys.session(client.context),
    queryFn: () => openSession(client, queryClient),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => {
      const expiresAt = query.state.data ? Date.parse(query.state.data.expiresAt) : undefined;
      return expiresAt === undefined ? false : Math.max(10_000, expiresAt - Date.now() - SESSION_RENEW_MARGIN_MS);
    },
  });
}
