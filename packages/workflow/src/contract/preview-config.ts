import { z } from 'zod/mini';

/**
 * `GET /api/preview` (only where the preview portal is enabled): what the preview needs to know before it
 * shows anything. In `emulator` mode it drives the emulator's control API at `emulatorControlPath`; in `platform` mode
 * there is no emulator to show, only the task page and our own delivery view.
 */
export const previewConfigSchema = z.object({
  mode: z.enum(['emulator', 'platform']),
  /** docs/platform.md#partner-task-configuration / 6.1: the end event the server fires (END_EVENT, END_EVENT_FORMAT); the preview listens for it. */
  endEvent: z.object({ name: z.string(), format: z.enum(['string', 'object']) }),
  emulatorControlPath: z.nullable(z.string()),
  /**
   * The workflows this server offers, for the launch form's choice: a link names one with the designer variable
   * `workflow=<id>` (docs/platform.md#partner-task-configuration); without it a new task runs `defaultWorkflow`. The
   * title is the definition's, the launch form's default for a new assignment: the server has every definition, and
   * the page takes none (docs/architecture.md#a-workflow-is-a-folder).
   */
  workflows: z.array(z.object({ id: z.string(), title: z.string(), steps: z.number(), estimatedMinutes: z.number() })),
  defaultWorkflow: z.string(),
  /** The companies the server acts for (WX_COMPANY_UUIDS), for the launch form; null when any company is served. */
  companies: z.nullable(z.array(z.string())),
});
export type PreviewConfig = z.infer<typeof previewConfigSchema>;
