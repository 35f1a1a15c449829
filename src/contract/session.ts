import { z } from 'zod/mini';
import { isoDateTimeField } from './contract-fields';
import { taskContextSchema } from './task-context';
import { taskViewSchema } from './task-view';

/** `POST /api/session` body: the four context values of spec 2.5, exactly as the portal appended them. */
export const sessionRequestSchema = taskContextSchema;

/**
 * DESIGN decision 5: a short-lived signed token instead of a cookie (third-party cookies fail in iframes). The page
 * keeps it in memory, sends it as `Authorization: Bearer`, and asks for a new one before `expiresAt`.
 */
export const sessionResponseSchema = z.object({
  token: z.string().check(z.minLength(1)),
  expiresAt: isoDateTimeField,
  task: taskViewSchema,
  /** DESIGN decision 6: the page says plainly when updates go to the emulator rather than the platform. */
  environment: z.object({ emulator: z.boolean() }),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
