// @partner-task-kit/server: an app's server entry, runKit, and what the app hands it
// (docs/architecture.md#what-the-app-hands-the-engine); and the update records a task sends the platform, for an app's
// tests of its workflows' labels (docs/public-api.md).
export { runKit } from './run-kit.ts';
export type { KitApp } from './kit-app.ts';
export type { AppMigrations } from './store/schema-migration.ts';
export type { FutureFlags } from './future-flags.ts';
// The type extendApp is handed, so an app names it without depending on Fastify itself.
export type { FastifyInstance } from 'fastify';
export {
  completedUpdate,
  failedUpdate,
  gradedRetryUpdate,
  openedUpdate,
  partnerFailedUpdate,
  restartedUpdate,
  startedUpdate,
  stepSavedUpdate,
  wentBackUpdate,
  type UpdateTarget,
} from './task-progress/status-updates.ts';
// What @partner-task-kit/dev implements, and what the server lends it (docs/architecture.md#the-dev-package).
export type { DevTools, EmulatorMode, EmulatorModeMount, EmulatorModeOptions } from './dev-tools/dev-tools.ts';
export type { AwaitedStep, DevHost } from './dev-tools/dev-host.ts';
export type { TaskFile } from './dev-tools/task-files.ts';
