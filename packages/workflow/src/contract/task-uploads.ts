import { z } from 'zod/mini';
import { isoDateTimeField, nonNegativeInt } from './contract-fields.ts';

/**
 * `GET /api/task/uploads` (docs/api.md#uploads): for each file field of the attempt, the newest completed upload that
 * no saved step names yet. A page opened on another device (or after its storage was cleared) shows it as done, so
 * the worker saves the step without sending the file again.
 */
export const taskUploadsSchema = z.object({
  uploads: z.array(
    z.object({
      /** The upload's id: what the step's file field takes, and `GET /api/task/uploads/:id` serves. */
      id: z.string(),
      stepId: z.string(),
      field: z.string(),
      /** Read from the bytes (docs/api.md#uploads), as the stored file is. */
      contentType: z.string(),
      bytes: nonNegativeInt,
      createdAt: isoDateTimeField,
    }),
  ),
});
export type TaskUploads = z.infer<typeof taskUploadsSchema>;
