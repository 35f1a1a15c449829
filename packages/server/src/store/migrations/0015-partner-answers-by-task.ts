import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../database-schema.ts';

/**
 * `partner_idempotency.task_key`: the assigned task a stored answer of the partner API is about, in lower case as
 * `tasks.assigned_task_key`, so erasing a worker's tasks (docs/operations.md#export-and-erasure), releasing one or
 * purging it deletes its answers, which repeat the task's step data, by an index instead of a search of every body.
 *
 * Rows already stored are linked where their body says the task: an answer (200) holds the task's view, whose
 * `assignedTaskUuid` is the one the request named. A refusal names no task and holds nothing of the worker; it stays
 * unlinked until its 24 hours are over. A nullable column and an index on a table of one day's requests: an expansion
 * that old instances run beside during a rolling upgrade (docs/operations.md#rolling-upgrades).
 */
export function partnerAnswersByTask(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('partner_idempotency').addColumn('task_key', 'text').execute();
      const assignedTaskUuid =
        dialect === 'postgres' ? sql`body::jsonb -> 'task' ->> 'assignedTaskUuid'` : sql`json_extract(body, '$.task.assignedTaskUuid')`;
      await sql`update partner_idempotency set task_key = lower(${assignedTaskUuid}) where status = 200 and body is not null`.execute(db);
      await db.schema.createIndex('partner_idempotency_task').on('partner_idempotency').column('task_key').execute();
    },
  };
}
