import { createContext, use, useState, type ReactNode } from 'react';
import type { TaskContext } from '@partner-task-kit/workflow/contract';
import { createApiClient, type ApiClient } from './api-client.ts';

const ApiClientContext = createContext<ApiClient | undefined>(undefined);

/**
 * One client (and so one in-memory token) per task context; render it with `key={assignedTaskUuid}`.
 * @internal
 */
export function ApiClientProvider({
  context,
  workflow,
  children,
}: {
  context: TaskContext;
  workflow: string | undefined;
  children: ReactNode;
}) {
  const [client] = useState(() => createApiClient({ context, workflow }));
  return <ApiClientContext value={client}>{children}</ApiClientContext>;
}

export function useApiClient(): ApiClient {
  const client = use(ApiClientContext);
  if (!client) throw new Error('useApiClient outside ApiClientProvider');
  return client;
}
