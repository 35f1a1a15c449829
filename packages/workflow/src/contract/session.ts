import { z } from 'zod/mini';
import { isoDateTimeField } from './contract-fields.ts';
import { taskContextSchema } from './task-context.ts';
import { taskViewSchema } from './task-view.ts';

/**
 * `POST /api/session` body: the four context values of docs/platform.md#task-context, exactly as the portal appended them, and the
 * workflow the link names, when it names one: the designer variable `workflow=<id>` of the iframe URL (docs/platform.md#partner-task-configuration lets
 * the flow designer append variables). Without it a new task runs the server's default workflow; an id the server
 * does not offer is refused with 400 `unknown_workflow`. Only a new task takes it: a task keeps the workflow it was
 * created with.
 */
export const sessionRequestSchema = z.extend(taskContextSchema, {
  workflow: z.optional(z.string({ error: 'must be a workflow id (a string)' })),
});
export type SessionRequest = z.infer<typeof sessionRequestSchema>;

/**
 * docs/decisions/005-no-cookies-session-tokens.md: a short-lived signed token instead of a cookie (third-party cookies fail in iframes). The page
 * keeps it in memory, sends it as `Authorization: Bearer`, and asks for a new one before `expiresAt`.
 */
export const sessionResponseSchema = z.object({
  token: z.string().check(z.minLength(1)),
  expiresAt: isoDateTimeField,
  task: taskViewSchema,
  /** docs/decisions/006-emulator-mode-is-the-default.md: the page says plainly when updates go to the emulator rather than the platform. */
  environment: z.object({ emulator: z.boolean() }),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
