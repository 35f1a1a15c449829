// @partner-task-kit/page: what the app's entry (src/main.tsx) needs, mountTaskPage, and the types of what it hands it:
// the table of its workflows' screens and its own versions of the shell's texts (docs/public-api.md). What a
// workflow's screens import is @partner-task-kit/page/screens.
export { mountTaskPage } from './task/mount-task-page.ts';
export type { LoadWorkflowScreensTable, WorkflowScreensTable } from './workflows/workflow-views.tsx';
export type * from './workflows/step-view-props.ts';
export type { ShellTextOverrides, TextsOverride } from './ui/i18n/shell-text-overrides.ts';
export type { ShellTexts } from './ui/i18n/shell-texts.ts';
export type { Locale } from './ui/i18n/locale.ts';
