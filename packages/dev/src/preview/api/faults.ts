import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { jsonRequest } from './json-request.ts';
import { previewKeys } from './preview-keys.ts';

/** An injected fault of the emulator (packages/dev/src/emulator/fault-queue.ts), as the control API lists it. */
const faultSchema = z.object({
  id: z.number(),
  endpoint: z.string(),
  kind: z.string(),
  count: z.number(),
  remaining: z.number(),
  status: z.optional(z.number()),
  assignedTaskUuid: z.optional(z.string()),
});
export type Fault = z.infer<typeof faultSchema>;

export interface FaultSpec {
  endpoint: 'partnerTask' | 'token' | 'workers' | 'any';
  kind: 'status' | 'rateLimit' | 'delay' | 'drop' | 'expireToken';
  count: number;
  status?: number;
  retryAfterSeconds?: number;
  /** Only this task's updates fail (an emulator addition): other tasks, and other people's tests, are left alone. */
  assignedTaskUuid?: string;
}

export function faultsQueryOptions(controlPath: string) {
  return queryOptions({
    queryKey: previewKeys.faults,
    queryFn: async () => (await jsonRequest('GET', `${controlPath}/faults`, z.object({ faults: z.array(faultSchema) }))).faults,
    refetchInterval: 1000,
  });
}

export function useInjectFault(controlPath: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (spec: FaultSpec) => jsonRequest('POST', `${controlPath}/faults`, faultSchema, spec),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: previewKeys.faults }),
  });
}

/** DELETE /control/faults?assignedTaskUuid=: ends this task's faults, leaves any other task's. */
export function useClearFaults(controlPath: string, assignedTaskUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      jsonRequest(
        'DELETE',
        `${controlPath}/faults?assignedTaskUuid=${encodeURIComponent(assignedTaskUuid)}`,
        z.object({ cleared: z.number() }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: previewKeys.faults }),
  });
}
