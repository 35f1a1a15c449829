import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices } from '../helpers/task-services';
import { testDatabase, type BlankTestDatabase } from '../helpers/test-databases';
import { deliverEverything } from '../helpers/worker-answers';

const DAY = 24 * 60 * 60_000;
let database: BlankTestDatabase;
let server: TestServer | undefined;

beforeEach(async () => {
  database = await testDatabase('sqlite').create();
});

afterEach(async () => {
  await server?.close();
  await database.cleanup();
});

describe('the retention job of a running server', () => {
  it('prunes the deliveries past OUTBOX_RETENTION_DAYS as it starts, and says so once', async () => {
    const seeding = await database.openStore();
    const longAgo = Date.now() - 40 * DAY;
    const task = await taskServices(seeding, { clock: new ManualClock(longAgo) }).open();
    await deliverEverything(seeding, longAgo);
    // The rest of its history raw, in one statement: 250 deliveries would take as many requests.
    await sql`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 250)
      insert into outbox (task_id, assigned_task_uuid, company_uuid, lane, payload, sent_at, state, attempts, next_attempt_at, created_at, delivered_at)
      select ${task.id}, ${task.assignedTaskUuid}, ${task.companyUuid}, 'platform', '{}', ${longAgo} + i, 'delivered', 1, ${longAgo},
        ${longAgo} + i, ${longAgo} + i
      from n`.execute(seeding.db);
    await seeding.close();

    server = await startTestServer({ OUTBOX_RETENTION_DAYS: '30' }, { database });
    const lines = server.logLines;

    const remaining = async () => Number((await sql<{ n: number }>`select count(*) as n from outbox`.execute(server!.store.db)).rows[0]!.n);
    await expect.poll(remaining, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => lines.filter((line) => line.includes('retention: deleted')).length).toBe(1);
    // Every delivery but the task's newest: the opening's `ready` and 249 of the 250.
    expect(JSON.parse(lines.find((line) => line.includes('retention: deleted'))!)).toMatchObject({ outboxRows: 250, tasksErased: 0 });
  }, 30_000);
});
