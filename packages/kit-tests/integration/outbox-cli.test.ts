import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimDeliverable, markDead, markManyDelivered, scheduleRetry } from '@partner-task-kit/server/store/outbox.repository';
import { listDead } from '@partner-task-kit/server/store/outbox-status.repository';
import type { PartnerEventType } from '@partner-task-kit/server/store/partner-events.repository';
import type { OutboxLane } from '@partner-task-kit/server/store/outbox.table';
import { kitCommandOn } from '../helpers/run-command';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import type { Store } from '@partner-task-kit/server/store/store';
import { ManualClock } from '../helpers/manual-clock';
import { partnerEventAlone, taskServices, type ServiceTask } from '../helpers/task-services';

/**
 * Rows of both lanes in every state an operator meets, written and settled as the relays would, a minute ago: per lane
 * one delivered, one pending and one dead; on the platform lane one more pending, held by a 403.
 */
async function seedBothLanes(store: Store) {
  const { db } = store;
  const now = Date.now() - 60_000;
  const services = taskServices(store, { clock: new ManualClock(now) });
  // The worker's next update after the `ready` of the open.
  let task: ServiceTask | undefined;
  const platform = async () => (task ? await services.nextUpdate(task) : (task = await services.open()));
  const partner = (type: PartnerEventType) => partnerEventAlone(store, task!, type, now);
  const settle = async (lane: OutboxLane, outcome: (id: number, workerId: string) => Promise<unknown>) => {
    const [row] = await claimDeliverable(db, { now, leaseMs: 60_000, limit: 1, workerId: `cli-${lane}`, lane });
    await outcome(row!.id, `cli-${lane}`);
    return row!.id;
  };
  const delivered = (id: number, workerId: string) => markManyDelivered(db, [id], { now, workerId });
  const dead = (reason: string) => (id: number, workerId: string) => markDead(db, id, { now, workerId, reason });
  const held = (id: number, workerId: string) =>
    scheduleRetry(db, id, { workerId, nextAttemptAt: now + 60_000, error: 'forbidden: HTTP 403' });

  // Each lane's rows of one task go one at a time (per-task order): written and settled in turn.
  await platform();
  await settle('platform', delivered);
  await platform();
  const platformDead = await settle('platform', dead('rejected (HTTP 422): bad record'));
  await platform();
  await settle('platform', held);
  await platform();
  await partner('task.step_saved');
  await settle('partner', delivered);
  await partner('task.completed');
  const partnerDead = await settle('partner', dead('retried for 24 h: client_error: HTTP 410'));
  await partner('task.restarted');
  return { task: task!, platformDead, partnerDead };
}

describe.each(testDatabases)('npm run outbox on $name', (engine) => {
  let t: TestDatabase;
  let url: string;
  let seeded: Awaited<ReturnType<typeof seedBothLanes>>;
  beforeEach(async () => {
    t = await engine.open();
    url = t.url;
    seeded = await seedBothLanes(t.store);
  });
  afterEach(() => t.cleanup());

  it('shows one block per lane: pending with the oldest age, held by a 403 (platform only), delivered, dead', async () => {
    const status = await kitCommandOn(url, 'outbox', ['status']);
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      new RegExp(
        [
          '^platform .*',
          ' {2}pending {4}2 \\(oldest [6-8]\\d s old\\)',
          ' {2}held {7}1 by a 403 from the platform: the role lacks a permission \\(npm run doctor\\)',
          ' {2}delivered {2}1',
          ' {2}dead {7}1 \\(npm run outbox -- dead --lane platform\\)',
          'partner .*',
          ' {2}pending {4}1 \\(oldest [6-8]\\d s old\\)',
          ' {2}delivered {2}1',
          ' {2}dead {7}1 \\(npm run outbox -- dead --lane partner\\)',
          '$',
        ].join('\n'),
      ),
    );
    const partnerOnly = await kitCommandOn(url, 'outbox', ['status', '--lane', 'partner']);
    expect(partnerOnly.stdout).not.toMatch(/platform|held/);
    expect(partnerOnly.stdout).toMatch(/^ {2}delivered {2}1$/m);
  }, 60_000);

  it('lists the dead letters of both lanes, each naming its lane, a partner event by its type and webhook id', async () => {
    const { task, platformDead, partnerDead } = seeded;
    const both = await kitCommandOn(url, 'outbox', ['dead']);
    expect(both.code).toBe(0);
    expect(both.stdout).not.toContain('undefined');
    const lines = both.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(new RegExp(`^#${platformDead} {2}platform {2}task ${task.assignedTaskUuid} {2}inProgress {2}sentAt \\S+Z$`));
    expect(lines[1]).toMatch(/^ {5}after 1 attempt\(s\), \S+: rejected \(HTTP 422\): bad record$/);
    expect(lines[2]).toBe(
      `#${partnerDead}  partner   task ${task.assignedTaskUuid}  task.completed  webhook-id msg_${task.id}_${partnerDead}`,
    );
    expect(lines[3]).toMatch(/^ {5}after 1 attempt\(s\), \S+: retried for 24 h: client_error: HTTP 410$/);

    const partner = await kitCommandOn(url, 'outbox', ['dead', '--lane', 'partner']);
    expect(partner.stdout.trimEnd().split('\n')).toEqual([lines[2], lines[3]]);
    const platform = await kitCommandOn(url, 'outbox', ['dead', '--lane', 'platform']);
    expect(platform.stdout).toContain(`#${platformDead}  platform  `);
    expect(platform.stdout).not.toContain('partner');
  }, 60_000);

  it('re-drives one dead letter of either lane by id, and every dead letter of one lane with --lane', async () => {
    const { platformDead, partnerDead } = seeded;
    const deadIds = async () => (await listDead(t.store.db)).map((row) => row.id);

    const one = await kitCommandOn(url, 'outbox', ['retry', String(partnerDead)]);
    expect(one.stdout).toBe(`#${partnerDead} is pending again.\n`);
    expect(await deadIds()).toEqual([platformDead]);
    const again = await kitCommandOn(url, 'outbox', ['retry', String(partnerDead)]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`retry: #${partnerDead} is not a dead letter (see npm run outbox -- dead)\n`);

    const partnerLane = await kitCommandOn(url, 'outbox', ['retry-dead', '--lane', 'partner']);
    expect(partnerLane.stdout).toBe('0 dead letter(s) of the partner lane pending again.\n');
    const platformLane = await kitCommandOn(url, 'outbox', ['retry-dead', '--lane', 'platform']);
    expect(platformLane.stdout).toBe('1 dead letter(s) of the platform lane pending again.\n');
    expect(await deadIds()).toEqual([]);
    const revived = await t.store.db
      .selectFrom('outbox')
      .select(['id', 'state', 'attempts'])
      .where('id', 'in', [platformDead, partnerDead])
      .orderBy('id')
      .execute();
    expect(revived).toEqual([
      { id: platformDead, state: 'pending', attempts: 0 },
      { id: partnerDead, state: 'pending', attempts: 0 },
    ]);
  }, 60_000);
});

describe('npm run outbox with bad input', () => {
  // Refused before the database is opened: the database named here never comes to exist.
  const url = '/nonexistent/never-opened.db';

  it.each([
    [['dead', '--lane', 'carrier'], 'dead: expected --lane platform or --lane partner, got "carrier"'],
    [['retry-dead', '--lane'], "outbox: Option '--lane <value>' argument missing: expected a command and at most --lane platform|partner"],
    [['status', '--verbose'], "outbox: Unknown option '--verbose': expected a command and at most --lane platform|partner"],
    [['retry', '7', '--lane', 'partner'], 'retry: expected no --lane: an id names one row, of either lane'],
    [['retry', 'seven'], 'retry: expected the id of a dead letter (a positive whole number), got "seven"'],
    [['dead', 'all'], 'dead: expected no argument, got "all"'],
    [['purge'], 'outbox: expected a command (status, dead, retry <id>, retry-dead or delete-dead), got "purge"'],
  ])('answers %j with one line saying what it expected, and exit code 2', async (args, message) => {
    const result = await kitCommandOn(url, 'outbox', args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([expect.stringContaining(message), '']);
  });

  it('shows its usage when given no command', async () => {
    const result = await kitCommandOn(url, 'outbox');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: npm run outbox -- <command> [--lane platform|partner]');
  });
});
