import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Two facts about a task that the platform's refusals and an attacker's ids are judged by.
 *
 * - `assigned_task_key`: the assigned task id in one canonical form (lower case). The ids are UUID strings (docs/platform.md#task-context),
 *   and RFC 9562 makes UUIDs case-insensitive, so `1E6F…` names the task `1e6f…` does and must meet its binding.
 *   `assigned_task_uuid` keeps the id as first received: that is what the platform is sent (its comparison is not
 *   shown).
 * - `confirmed_at`: when the platform first accepted an update of the task. A refusal of a task never confirmed may be
 *   the task's own (an invented id); a refusal of a confirmed one says the platform refuses more than one task.
 *
 * Rows written before this migration may hold one task twice in two cases: the oldest keeps the id, the later ones
 * are marked rejected (their updates reported to the oldest binding's task) and keep a key no id can reach.
 */
export const taskKeyAndConfirmation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tasks').addColumn('assigned_task_key', 'text').execute();
    await db.schema.alterTable('tasks').addColumn('confirmed_at', 'bigint').execute();
    await sql`update tasks set assigned_task_key = lower(assigned_task_uuid)`.execute(db);
    await sql`
      update tasks set confirmed_at = (
        select min(o.delivered_at) from outbox o where o.task_id = tasks.id and o.state = 'delivered'
      )`.execute(db);

    // Companies are compared in lower case everywhere else (tenants, the outbox): the creation budget counts them so.
    await sql`update tasks set company_uuid = lower(company_uuid)`.execute(db);

    const { rows: doomed } = await sql<{ id: string }>`
      select later.id from tasks later
      where exists (
        select 1 from tasks older
        where older.assigned_task_key = later.assigned_task_key
          and (older.created_at < later.created_at or (older.created_at = later.created_at and older.id < later.id))
      )`.execute(db);
    const now = Date.now();
    const reason = 'bound before in another letter case: the same assigned task as an older binding';
    for (const { id } of doomed) {
      await sql`
        update outbox set state = 'dead', dead_at = ${now}, dead_reason = ${`task rejected: ${reason}`},
          locked_until = null, locked_by = null
        where state = 'pending' and task_id = ${id}`.execute(db);
      await sql`
        update tasks set rejected_at = coalesce(rejected_at, ${now}), rejected_reason = coalesce(rejected_reason, ${reason}),
          assigned_task_key = assigned_task_key || '#' || id
        where id = ${id}`.execute(db);
    }

    await db.schema.createIndex('tasks_assigned_task_key').on('tasks').column('assigned_task_key').unique().execute();
    // The evidence that a credential works: its companies' latest confirmation, read once per tenant and process.
    await db.schema.createIndex('tasks_company_confirmed').on('tasks').columns(['company_uuid', 'confirmed_at']).execute();
  },
};
