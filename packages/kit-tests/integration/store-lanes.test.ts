import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreDb } from '@partner-task-kit/server/store/database-schema';
import { claimDeliverable, markManyDelivered, nextDueAt, scheduleRetry } from '@partner-task-kit/server/store/outbox.repository';
import type { OutboxLane, OutboxUpdate } from '@partner-task-kit/server/store/outbox.table';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import { listUpdatesForTask } from '@partner-task-kit/server/store/outbox-status.repository';
import { ManualClock } from '../helpers/manual-clock';
import { partnerEventAlone, taskServices, type ServiceTask, type TaskServices } from '../helpers/task-services';

const t0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const lease = { leaseMs: 30_000, limit: 10, workerId: 'relay-a' };
const HOUR = 3_600_000;

/** The newest row of a lane: the one just written. */
async function newestRow(db: StoreDb, lane: OutboxLane): Promise<number> {
  const row = await db.selectFrom('outbox').select('id').where('lane', '=', lane).orderBy('id', 'desc').executeTakeFirstOrThrow();
  return row.id;
}

const rowIds = (rows: OutboxUpdate[]) => rows.map((row) => row.id);

/** Claims and delivers a lane's rows until none is left, as its relay would: every row it ever got, in order. */
async function drain(db: StoreDb, lane: OutboxLane, now: number): Promise<OutboxUpdate[]> {
  const claimed: OutboxUpdate[] = [];
  for (let round = 0; round < 20; round += 1) {
    const rows = await claimDeliverable(db, { ...lease, now: now + round, lane });
    if (rows.length === 0) break;
    claimed.push(...rows);
    for (const row of rows) await markManyDelivered(db, [row.id], { now: now + round, workerId: lease.workerId });
  }
  return claimed;
}

describe.each(testDatabases)('the two delivery lanes of the outbox on $name', (engine) => {
  let t: TestDatabase;
  let db: StoreDb;
  let services: TaskServices;
  const clock = new ManualClock(t0);
  beforeEach(async () => {
    t = await engine.open();
    db = t.store.db;
    services = taskServices(t.store, { clock });
  });
  afterEach(() => t.cleanup());

  /** A task a worker opened at `at`, and the row of its first update to the platform (its `ready`). */
  async function addTask(companyUuid: string = randomUUID(), at = t0): Promise<{ task: ServiceTask; firstUpdate: number }> {
    clock.set(at);
    const task = await services.open({ wxCompanyUuid: companyUuid });
    return { task, firstUpdate: await newestRow(db, 'platform') };
  }

  /** An event of the task to the partner's backend alone, at `now`: its row. */
  const partnerEvent = (task: ServiceTask, now: number) => partnerEventAlone(t.store, task, 'task.step_saved', now);

  /** The task's next update to the platform, written by the services at `now`: its row. */
  async function platformUpdate(task: ServiceTask, now: number): Promise<number> {
    clock.set(now);
    await services.nextUpdate(task);
    return newestRow(db, 'platform');
  }

  it("claims only its own lane's rows, however the lanes interleave", async () => {
    const [a, b] = [await addTask(), await addTask(undefined, t0 + 3)];
    const platformIds = [a.firstUpdate, b.firstUpdate];
    const partnerIds = [await partnerEvent(a.task, t0 + 1), await partnerEvent(b.task, t0 + 2), await partnerEvent(a.task, t0 + 4)];
    platformIds.push(await platformUpdate(a.task, t0 + 5));

    const platform = await drain(db, 'platform', t0 + 10);
    expect(platform.map((row) => row.lane)).toEqual(['platform', 'platform', 'platform']);
    expect(rowIds(platform).sort((x, y) => x - y)).toEqual(platformIds);
    // The platform's relay delivered everything it could claim; the partner's rows are untouched.
    const untouched = await db.selectFrom('outbox').selectAll().where('lane', '=', 'partner').orderBy('id').execute();
    expect(untouched.map((row) => [row.id, row.state, row.locked_by])).toEqual(partnerIds.map((id) => [id, 'pending', null]));

    const partner = await drain(db, 'partner', t0 + 40);
    expect(partner.map((row) => row.lane)).toEqual(['partner', 'partner', 'partner']);
    expect(rowIds(partner).sort((x, y) => x - y)).toEqual(partnerIds);
  });

  it("takes only its own lane's rows in a probe and in a claim for some companies", async () => {
    const company = randomUUID();
    const { task, firstUpdate: platformId } = await addTask(company);
    const partnerId = await partnerEvent(task, t0);
    const companies = [company.toLowerCase()];
    // A probe takes a row whose next try is not due yet (docs/operations.md#the-circuit-per-tenant).
    const probe = { ...lease, now: t0 - 1_000, limit: 1, anyDueTime: true, companies };
    expect(rowIds(await claimDeliverable(db, { ...probe, lane: 'partner' }))).toEqual([partnerId]);
    expect(rowIds(await claimDeliverable(db, { ...probe, lane: 'platform', workerId: 'relay-b' }))).toEqual([platformId]);
    expect(await claimDeliverable(db, { ...lease, now: t0, companies, lane: 'partner', workerId: 'relay-c' })).toEqual([]);
    expect(await claimDeliverable(db, { ...lease, now: t0, companies, lane: 'platform', workerId: 'relay-c' })).toEqual([]);
  });

  it("holds no platform update behind its task's partner events: each lane keeps its own per-task order", async () => {
    const { task, firstUpdate: p1 } = await addTask(undefined, t0 + 1);
    const e1 = await partnerEvent(task, t0);
    const e2 = await partnerEvent(task, t0 + 2);
    const p2 = await platformUpdate(task, t0 + 3);
    const now = t0 + 10;

    expect(rowIds(await claimDeliverable(db, { ...lease, now, lane: 'partner' }))).toEqual([e1]);
    // The task's older partner event is in flight: the platform's oldest update goes anyway.
    expect(rowIds(await claimDeliverable(db, { ...lease, now, lane: 'platform' }))).toEqual([p1]);
    // Each lane's second row waits behind its own lane's first, in flight.
    expect(await claimDeliverable(db, { ...lease, now: now + 1, lane: 'partner', workerId: 'relay-b' })).toEqual([]);
    expect(await claimDeliverable(db, { ...lease, now: now + 1, lane: 'platform', workerId: 'relay-b' })).toEqual([]);

    // The partner's endpoint is down for an hour: its event backs off, the platform's updates go on.
    await scheduleRetry(db, e1, { workerId: lease.workerId, nextAttemptAt: now + HOUR, error: 'server_error: HTTP 503' });
    await markManyDelivered(db, [p1], { now: now + 2, workerId: lease.workerId });
    expect(rowIds(await claimDeliverable(db, { ...lease, now: now + 3, lane: 'platform' }))).toEqual([p2]);
    expect(await claimDeliverable(db, { ...lease, now: now + 3, lane: 'partner' })).toEqual([]);
    expect(await nextDueAt(db, undefined, 'partner')).toBe(now + HOUR);
    expect(rowIds(await claimDeliverable(db, { ...lease, now: now + HOUR, lane: 'partner' }))).toEqual([e1]);
    await markManyDelivered(db, [e1], { now: now + HOUR, workerId: lease.workerId });
    expect(rowIds(await claimDeliverable(db, { ...lease, now: now + HOUR + 1, lane: 'partner' }))).toEqual([e2]);
  });

  it("holds no partner event behind its task's platform updates while the platform is away", async () => {
    const { task, firstUpdate: p1 } = await addTask();
    const e1 = await partnerEvent(task, t0 + 1);
    const e2 = await partnerEvent(task, t0 + 2);
    const now = t0 + 10;

    expect(rowIds(await claimDeliverable(db, { ...lease, now, lane: 'platform' }))).toEqual([p1]);
    await scheduleRetry(db, p1, { workerId: lease.workerId, nextAttemptAt: now + HOUR, error: 'server_error: HTTP 503' });
    expect(await nextDueAt(db, undefined, 'platform')).toBe(now + HOUR);
    expect(await nextDueAt(db, undefined, 'partner')).toBe(t0 + 1);
    expect(rowIds(await drain(db, 'partner', now + 1))).toEqual([e1, e2]);
    expect(await claimDeliverable(db, { ...lease, now: now + 100, lane: 'platform' })).toEqual([]);
  });

  it("leaves the platform's sentAt rule to the platform's rows: a partner event never moves sentAt", async () => {
    // A restart writes its update and its event in one transaction: both at `now`, the update's sentAt included.
    const told = taskServices(t.store, { clock, partnerEvents: true });
    const { task } = await addTask(undefined, t0 + 500);
    await platformUpdate(task, t0 + 900);
    clock.set(t0 + 1_000);
    await told.restart(task);
    const sentAts = async () => (await listUpdatesForTask(db, task.id)).map((row) => row.sentAt);
    expect((await sentAts()).at(-1)).toBe(t0 + 1_000);

    // An event stamped a minute ahead (another instance's clock) does not push the next update's sentAt past it.
    await partnerEvent(task, t0 + 60_000);
    await platformUpdate(task, t0 + 2_000);
    expect((await sentAts()).at(-1)).toBe(t0 + 2_000);

    // The clock steps back behind the last update: sentAt is one past the platform's newest, as without events.
    await partnerEvent(task, t0 + 90_000);
    await platformUpdate(task, t0 + 500);
    const [third] = (await listUpdatesForTask(db, task.id)).slice(-1);
    expect(third).toMatchObject({ sentAt: t0 + 2_001, payload: { sentAt: new Date(t0 + 2_001).toISOString() } });

    // And an event keeps its own time: the platform's sentAt rule does not apply to it.
    const events = await db.selectFrom('outbox').select(['sent_at', 'payload']).where('lane', '=', 'partner').orderBy('id').execute();
    expect(events.map((row) => Number(row.sent_at))).toEqual([t0 + 1_000, t0 + 60_000, t0 + 90_000]);
    expect(events.map((row) => (JSON.parse(row.payload) as { timestamp: string }).timestamp)).toEqual(
      [t0 + 1_000, t0 + 60_000, t0 + 90_000].map((ms) => new Date(ms).toISOString()),
    );
  });
});
