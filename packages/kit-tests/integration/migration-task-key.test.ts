import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { asOlderTables, databaseAtMigration, type OlderSchemaDatabase } from '../helpers/older-schema';

let opened: OlderSchemaDatabase | undefined;
afterEach(async () => {
  await opened?.cleanup();
  opened = undefined;
});

describe.each(['sqlite', 'postgres'] as const)('migration 0007 on %s', (dialect) => {
  it('keys tasks without letter case, rejects a later binding of one task in another case, and marks confirmed tasks', async () => {
    opened = await databaseAtMigration(dialect, '0006_fewer_outbox_indexes');
    const { db } = opened;

    const id = randomUUID();
    const task = (taskId: string, assignedTaskUuid: string, createdAt: number) => ({
      id: taskId,
      assigned_task_uuid: assignedTaskUuid,
      worker_uuid: randomUUID(),
      task_flow_uuid: randomUUID(),
      company_uuid: 'ABCDEF00-0000-4000-8000-000000000000',
      workflow_id: 'safety-training',
      status: 'ready' as const,
      attempt: 1,
      current_step: null,
      step_data: '{}',
      attempt_started_at: null,
      failed_reason: null,
      created_at: createdAt,
      updated_at: createdAt,
    });
    const oldTables = asOlderTables(db);
    await oldTables
      .insertInto('tasks')
      .values([task('first', id, 1_000), task('second', id.toUpperCase(), 2_000)])
      .execute();
    const row = (taskId: string, state: string, deliveredAt: number | null) => ({
      task_id: taskId,
      assigned_task_uuid: taskId === 'first' ? id : id.toUpperCase(),
      company_uuid: 'abcdef00-0000-4000-8000-000000000000',
      payload: '{"taskStatus":"ready","sentAt":"2026-01-01T00:00:00.000Z"}',
      sent_at: 1_000,
      state,
      attempts: 0,
      next_attempt_at: 1_000,
      created_at: 1_000,
      delivered_at: deliveredAt,
    });
    await oldTables
      .insertInto('outbox')
      .values([row('first', 'delivered', 1_500), row('first', 'pending', null), row('second', 'pending', null)])
      .execute();

    await opened.migrateToLatest();
    const tasks = await db
      .selectFrom('tasks')
      .select(['id', 'assigned_task_uuid', 'assigned_task_key', 'company_uuid', 'confirmed_at', 'rejected_at'])
      .orderBy('id')
      .execute();
    // A raw Postgres pool reads bigint as text: compared as numbers.
    const asNumber = (value: unknown) => (value === null ? null : Number(value));
    expect(tasks.map((row) => ({ ...row, confirmed_at: asNumber(row.confirmed_at), rejected_at: asNumber(row.rejected_at) }))).toEqual([
      {
        id: 'first',
        assigned_task_uuid: id,
        assigned_task_key: id,
        company_uuid: 'abcdef00-0000-4000-8000-000000000000',
        confirmed_at: 1_500,
        rejected_at: null,
      },
      {
        id: 'second',
        assigned_task_uuid: id.toUpperCase(),
        assigned_task_key: `${id}#second`,
        company_uuid: 'abcdef00-0000-4000-8000-000000000000',
        confirmed_at: null,
        rejected_at: expect.any(Number),
      },
    ]);
    const states = await db.selectFrom('outbox').select(['task_id', 'state']).orderBy('id').execute();
    expect(states).toEqual([
      { task_id: 'first', state: 'delivered' },
      { task_id: 'first', state: 'pending' },
      { task_id: 'second', state: 'dead' },
    ]);
    // From now on the key is unique: a second binding of the id in any case cannot be written.
    await expect(
      db
        .insertInto('tasks')
        .values({ ...task('third', id.toUpperCase(), 3_000), assigned_task_key: id } as never)
        .execute(),
    ).rejects.toThrow();
  });
});
