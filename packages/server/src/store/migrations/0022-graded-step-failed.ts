import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The history kind of a graded step's try below its pass mark, as the releases before this migration stored it. An
 * instance of such a release still writes it while a rolling upgrade runs (docs/operations.md#rolling-upgrades), after
 * this migration has run, so the one row conversion (task-history.table.ts) reads it as `graded_step_failed` for good.
 */
export const LEGACY_GRADED_STEP_FAILED_KIND = 'quiz_failed';

/**
 * History kind `graded_step_failed`: the engine's name for a failed try of any graded step (docs/upgrading.md#history-kind-graded_step_failed).
 * Rewrites only the matching rows: reads and new entries of the instances still serving do not wait for it.
 */
export const gradedStepFailed: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`update task_history set kind = ${'graded_step_failed'} where kind = ${LEGACY_GRADED_STEP_FAILED_KIND}`.execute(db);
  },
};
