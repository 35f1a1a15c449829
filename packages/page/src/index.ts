// The page's API for an app: its entry (mountTaskPage) and what a workflow's screens are handed (step-view-props).
// A screen's building blocks are under @partner-task-kit/page/ui/* and its hooks under @partner-task-kit/page/api/*.
export { mountTaskPage } from './task/mount-task-page.ts';
export type * from './workflows/step-view-props.ts';
export type { ShellTextOverrides, TextsOverride } from './ui/i18n/shell-text-overrides.ts';
