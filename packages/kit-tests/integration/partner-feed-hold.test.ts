import pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cursorSeal } from '@partner-task-kit/server/partner-api/changes-cursor';
import { createFeedWatch } from '@partner-task-kit/server/partner-api/feed-watch';
import { listPartnerTaskChanges } from '@partner-task-kit/server/partner-api/partner-tasks.service';
import { openPostgresTestDatabase, testPostgresUrl, type TestDatabase } from '../helpers/test-databases';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices } from '../helpers/task-services';

/**
 * On Postgres the feed serves only changes older than every transaction still open on the database server, so one
 * transaction left open (here in another database) stops it without an error. The stop must be seen: a metric while
 * it lasts, a warning naming the transaction once it has lasted 5 s (docs/operations.md), a line when it ends.
 */
describe('the changes feed held back on Postgres', () => {
  let database: TestDatabase;
  const clock = new ManualClock(Date.parse('2026-03-01T09:00:00.000Z'));
  const registry = new Registry();
  const lines: { level: 'warn' | 'info'; object: Record<string, unknown>; message: string }[] = [];
  const log = {
    warn: (object: object, message: string) => lines.push({ level: 'warn', object: object as Record<string, unknown>, message }),
    info: (object: object, message: string) => lines.push({ level: 'info', object: object as Record<string, unknown>, message }),
  };
  beforeAll(async () => {
    database = await openPostgresTestDatabase();
  });
  afterAll(() => database.cleanup());

  const openTask = () => taskServices(database.store, { clock }).open();
  const gauge = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0]?.value;

  it('shows the hold in a metric and a log line naming the open transaction, and its end', async () => {
    const store = database.store;
    const watch = createFeedWatch({ store, clock, log, metrics: registry });
    const cursors = cursorSeal('test-secret-0123456789abcdef0123456789');
    const read = (updatedAfter: string | undefined) =>
      listPartnerTaskChanges(store, { updatedAfter, limit: 50, companyUuid: undefined, cursors, watch });

    // Other tests' transactions on this server hold the feed back too, briefly: wait them out.
    const until = async (done: () => Promise<boolean>) => {
      for (const deadline = Date.now() + 20_000; !(await done()) && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 50));
    };
    await openTask();
    let first = await read(undefined);
    await until(async () => first.count === 1 || ((first = await read(undefined)), false));
    expect(first.count).toBe(1);

    // A transaction with an id, open in another database of the same server.
    const holder = new pg.Client({ connectionString: new URL('/postgres', testPostgresUrl).href, application_name: 'feed-hold-test' });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      const { rows } = await holder.query<{ pid: number }>('select pg_backend_pid() as pid');
      const held = await openTask();

      const during = await read(first.nextCursor);
      expect(during.count).toBe(0);
      expect(await gauge('partner_feed_held_back_changes')).toBe(1);
      expect(lines).toEqual([]);

      clock.advance(6_000);
      await read(during.nextCursor);
      expect(await gauge('partner_feed_held_back_seconds')).toBe(6);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 'warn',
        object: { event: 'feed_held_back', heldChanges: 1, oldestTransaction: { pid: expect.any(Number), ageSeconds: expect.any(Number) } },
      });
      // The oldest open transaction is ours, unless another test's on the same server began before it.
      const named = lines[0]!.object.oldestTransaction as { pid: number; database: string; application: string };
      if (named.pid === rows[0]!.pid) expect(named).toMatchObject({ database: 'postgres', application: 'feed-hold-test' });

      await holder.query('commit');
      let after = await read(during.nextCursor);
      await until(
        async () =>
          (after.count === 1 && (await gauge('partner_feed_held_back_seconds')) === 0) || ((after = await read(during.nextCursor)), false),
      );
      expect(after.tasks.map((task) => task.assignedTaskUuid)).toEqual([held.assignedTaskUuid]);
      expect(await gauge('partner_feed_held_back_seconds')).toBe(0);
      expect(lines[1]).toMatchObject({ level: 'info', object: { event: 'feed_held_back_ended' } });
    } finally {
      await holder.end();
    }
  });
});
