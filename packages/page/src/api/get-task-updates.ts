import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  isoDateTimeField,
  nonNegativeInt,
  taskStatusField,
  type PartnerTaskUpdate,
  type TaskUpdatesResponse,
} from '@partner-task-kit/workflow/contract';
import type { ApiClient } from './api-client.ts';
import { taskKeys } from './query-keys.ts';

/**
 * The answer of GET /api/task/updates as the preview reads it, in zod/mini. The contract's schema
 * (packages/workflow/src/contract/task-updates.ts) holds the platform's record in classic zod, the server's; classic
 * zod in the preview's chunk made the zod/mini the task page shares with it keep every one of its schema types,
 * kilobytes more of the first screen's JavaScript (BENCHMARKS.md, docs/development.md#benchmarks). The server has
 * checked each record on its way in, so the preview checks its shape only; the type below fails to compile if the two
 * drift apart.
 */
const partnerTaskUpdateShape = z.object({
  taskStatus: taskStatusField,
  sentAt: isoDateTimeField,
  partnerId: z.optional(z.string()),
  partnerUrl: z.optional(z.string()),
  partnerStatus: z.optional(
    z.object({
      label: z.optional(z.string()),
      color: z.optional(z.enum(['success', 'warning', 'danger', 'neutral'])),
      details: z.optional(z.string()),
    }),
  ),
}) satisfies z.ZodMiniType<PartnerTaskUpdate>;

const taskUpdatesShape = z.object({
  updates: z.array(
    z.object({
      id: z.int(),
      record: partnerTaskUpdateShape,
      delivery: z.object({
        state: z.enum(['pending', 'delivered', 'dead']),
        attempts: nonNegativeInt,
        deliveredAt: z.nullable(isoDateTimeField),
        nextAttemptAt: z.nullable(isoDateTimeField),
        lastError: z.nullable(z.string()),
        deadReason: z.nullable(z.string()),
      }),
    }),
  ),
}) satisfies z.ZodMiniType<TaskUpdatesResponse>;

/** GET /api/task/updates: what this task sent or will send to the platform, with delivery states. */
function getTaskUpdates(client: ApiClient): Promise<TaskUpdatesResponse> {
  return client.call('GET', '/api/task/updates', taskUpdatesShape);
}

/** @internal */
export function taskUpdatesQueryOptions(client: ApiClient) {
  return queryOptions({ queryKey: taskKeys.updates(client.context), queryFn: () => getTaskUpdates(client) });
}
