import { z } from 'zod/mini';
import { isoDateTimeField, nonNegativeInt } from './contract-fields.ts';
import { partnerTaskUpdateSchema } from './partner-task-update.ts';

/**
 * `GET /api/task/updates`: this task's updates (docs/platform.md#partner-task-update-record records) with their delivery state in our outbox, oldest
 * first. `nextAttemptAt` is set while an update waits (due now, or a retry's time). Error texts from upstream
 * (`lastError`, `deadReason`) are filled in only where the preview portal is enabled, a developer's machine; elsewhere
 * they are null and stay in the server's logs and operator tools. (Used by the server and tooling, never by the page:
 * it pulls in classic zod; the preview reads the answer with its own zod/mini schema, packages/page/src/api/get-task-updates.ts.)
 */
const taskUpdateViewSchema = z.object({
  id: z.int(),
  record: partnerTaskUpdateSchema,
  delivery: z.object({
    state: z.enum(['pending', 'delivered', 'dead']),
    attempts: nonNegativeInt,
    deliveredAt: z.nullable(isoDateTimeField),
    nextAttemptAt: z.nullable(isoDateTimeField),
    lastError: z.nullable(z.string()),
    deadReason: z.nullable(z.string()),
  }),
});
export type TaskUpdateView = z.infer<typeof taskUpdateViewSchema>;

export const taskUpdatesResponseSchema = z.object({ updates: z.array(taskUpdateViewSchema) });
export type TaskUpdatesResponse = z.infer<typeof taskUpdatesResponseSchema>;
