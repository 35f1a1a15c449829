import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreDb } from '@partner-task-kit/server/store/database-schema';
import { claimDeliverable, markDelivered, nextDueAt, scheduleRetry } from '@partner-task-kit/server/store/outbox.repository';
import { enqueueUpdate } from '@partner-task-kit/server/store/outbox-enqueue.repository';
import { enqueuePartnerEvent } from '@partner-task-kit/server/store/partner-events.repository';
import type { OutboxLane, OutboxUpdate } from '@partner-task-kit/server/store/outbox.table';
import { insertTask } from '@partner-task-kit/server/store/tasks.repository';
import type { Task } from '@partner-task-kit/server/store/tasks.table';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';

const t0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const lease = { leaseMs: 30_000, limit: 10, workerId: 'relay-a' };
const HOUR = 3_600_000;

function addTask(db: StoreDb, companyUuid: string = randomUUID()): Promise<Task> {
  return insertTask(db, {
    assignedTaskUuid: randomUUID(),
    workerUuid: randomUUID(),
    taskFlowUuid: randomUUID(),
    companyUuid,
    workflowId: 'onboarding-quiz',
    now: t0,
  });
}

/** An update to the platform, written as a task service writes it: in a transaction of its own. */
async function platformUpdate(db: StoreDb, task: Task, now: number): Promise<number> {
  const row = await db.transaction().execute((trx) => enqueueUpdate(trx, { taskId: task.id, record: { taskStatus: 'inProgress' }, now }));
  return row.id;
}

/** An event to the partner's backend, likewise; its row id, as the relay and the webhook id know it. */
async function partnerEvent(db: StoreDb, task: Task, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await enqueuePartnerEvent(trx, { task, type: 'task.step_saved', now });
    const row = await trx.selectFrom('outbox').select('id').where('lane', '=', 'partner').orderBy('id', 'desc').executeTakeFirstOrThrow();
    return row.id;
  });
}

const ids = (rows: OutboxUpdate[]) => rows.map((row) => row.id);

/** Claims and delivers a lane's rows until none is left, as its relay would: every row it ever got, in order. */
async function drain(db: StoreDb, lane: OutboxLane, now: number): Promise<OutboxUpdate[]> {
  const claimed: OutboxUpdate[] = [];
  for (let round = 0; round < 20; round += 1) {
    const rows = await claimDeliverable(db, { ...lease, now: now + round, lane });
    if (rows.length === 0) break;
    claimed.push(...rows);
    for (const row of rows) await markDelivered(db, row.id, { now: now + round, workerId: lease.workerId });
  }
  return claimed;
}

describe.each(testDatabases)('the two delivery lanes of the outbox on $name', (engine) => {
  let t: TestDatabase;
  let db: StoreDb;
  beforeEach(async () => {
    t = await engine.open();
    db = t.store.db;
  });
  afterEach(() => t.cleanup());

  it("claims only its own lane's rows, however the lanes interleave", async () => {
    const [a, b] = [await addTask(db), await addTask(db)];
    const platformIds = [await platformUpdate(db, a, t0), await platformUpdate(db, b, t0 + 3)];
    const partnerIds = [await partnerEvent(db, a, t0 + 1), await partnerEvent(db, b, t0 + 2), await partnerEvent(db, a, t0 + 4)];
    platformIds.push(await platformUpdate(db, a, t0 + 5));

    const platform = await drain(db, 'platform', t0 + 10);
    expect(platform.map((row) => row.lane)).toEqual(['platform', 'platform', 'platform']);
    expect(ids(platform).sort((x, y) => x - y)).toEqual(platformIds);
    // The platform's relay delivered everything it could claim; the partner's rows are untouched.
    const untouched = await db.selectFrom('outbox').selectAll().where('lane', '=', 'partner').orderBy('id').execute();
    expect(untouched.map((row) => [row.id, row.state, row.locked_by])).toEqual(partnerIds.map((id) => [id, 'pending', null]));

    const partner = await drain(db, 'partner', t0 + 40);
    expect(partner.map((row) => row.lane)).toEqual(['partner', 'partner', 'partner']);
    expect(ids(partner).sort((x, y) => x - y)).toEqual(partnerIds);
  });

  it("takes only its own lane's rows in a probe and in a claim for some companies", async () => {
    const company = randomUUID();
    const task = await addTask(db, company);
    const platformId = await platformUpdate(db, task, t0);
    const partnerId = await partnerEvent(db, task, t0);
    const companies = [company.toLowerCase()];
    // A probe takes a row whose next try is not due yet (docs/operations.md#the-circuit-per-tenant).
    const probe = { ...lease, now: t0 - 1_000, limit: 1, anyDueTime: true, companies };
    expect(ids(await claimDeliverable(db, { ...probe, lane: 'partner' }))).toEqual([partnerId]);
    expect(ids(await claimDeliverable(db, { ...probe, lane: 'platform', workerId: 'relay-b' }))).toEqual([platformId]);
    expect(await claimDeliverable(db, { ...lease, now: t0, companies, lane: 'partner', workerId: 'relay-c' })).toEqual([]);
    expect(await claimDeliverable(db, { ...lease, now: t0, companies, lane: 'platform', workerId: 'relay-c' })).toEqual([]);
  });

  it("holds no platform update behind its task's partner events: each lane keeps its own per-task order", async () => {
    const task = await addTask(db);
    const e1 = await partnerEvent(db, task, t0);
    const p1 = await platformUpdate(db, task, t0 + 1);
    const e2 = await partnerEvent(db, task, t0 + 2);
    const p2 = await platformUpdate(db, task, t0 + 3);
    const now = t0 + 10;

    expect(ids(await claimDeliverable(db, { ...lease, now, lane: 'partner' }))).toEqual([e1]);
    // The task's older partner event is in flight: the platform's oldest update goes anyway.
    expect(ids(await claimDeliverable(db, { ...lease, now, lane: 'platform' }))).toEqual([p1]);
    // Each lane's second row waits behind its own lane's first, in flight.
    expect(await claimDeliverable(db, { ...lease, now: now + 1, lane: 'partner', workerId: 'relay-b' })).toEqual([]);
    expect(await claimDeliverable(db, { ...lease, now: now + 1, lane: 'platform', workerId: 'relay-b' })).toEqual([]);

    // The partner's endpoint is down for an hour: its event backs off, the platform's updates go on.
    await scheduleRetry(db, e1, { workerId: lease.workerId, nextAttemptAt: now + HOUR, error: 'server_error: HTTP 503' });
    await markDelivered(db, p1, { now: now + 2, workerId: lease.workerId });
    expect(ids(await claimDeliverable(db, { ...lease, now: now + 3, lane: 'platform' }))).toEqual([p2]);
    expect(await claimDeliverable(db, { ...lease, now: now + 3, lane: 'partner' })).toEqual([]);
    expect(await nextDueAt(db, undefined, 'partner')).toBe(now + HOUR);
    expect(ids(await claimDeliverable(db, { ...lease, now: now + HOUR, lane: 'partner' }))).toEqual([e1]);
    await markDelivered(db, e1, { now: now + HOUR, workerId: lease.workerId });
    expect(ids(await claimDeliverable(db, { ...lease, now: now + HOUR + 1, lane: 'partner' }))).toEqual([e2]);
  });

  it("holds no partner event behind its task's platform updates while the platform is away", async () => {
    const task = await addTask(db);
    const p1 = await platformUpdate(db, task, t0);
    const e1 = await partnerEvent(db, task, t0 + 1);
    const e2 = await partnerEvent(db, task, t0 + 2);
    const now = t0 + 10;

    expect(ids(await claimDeliverable(db, { ...lease, now, lane: 'platform' }))).toEqual([p1]);
    await scheduleRetry(db, p1, { workerId: lease.workerId, nextAttemptAt: now + HOUR, error: 'server_error: HTTP 503' });
    expect(await nextDueAt(db, undefined, 'platform')).toBe(now + HOUR);
    expect(await nextDueAt(db, undefined, 'partner')).toBe(t0 + 1);
    expect(ids(await drain(db, 'partner', now + 1))).toEqual([e1, e2]);
    expect(await claimDeliverable(db, { ...lease, now: now + 100, lane: 'platform' })).toEqual([]);
  });

  it("leaves the platform's sentAt rule to the platform's rows: a partner event never moves sentAt", async () => {
    const task = await addTask(db);
    const first = await db.transaction().execute(async (trx) => {
      // A step writes its event and its update in one transaction, the event first: the update keeps `now` as sentAt.
      await enqueuePartnerEvent(trx, { task, type: 'task.step_saved', now: t0 + 1_000 });
      return enqueueUpdate(trx, { taskId: task.id, record: { taskStatus: 'inProgress' }, now: t0 + 1_000 });
    });
    expect(first.sentAt).toBe(t0 + 1_000);

    // An event stamped a minute ahead (another instance's clock) does not push the next update's sentAt past it.
    await partnerEvent(db, task, t0 + 60_000);
    const second = await db
      .transaction()
      .execute((trx) => enqueueUpdate(trx, { taskId: task.id, record: { taskStatus: 'inProgress' }, now: t0 + 2_000 }));
    expect(second.sentAt).toBe(t0 + 2_000);

    // The clock steps back behind the last update: sentAt is one past the platform's newest, as without events.
    await partnerEvent(db, task, t0 + 90_000);
    const third = await db
      .transaction()
      .execute((trx) => enqueueUpdate(trx, { taskId: task.id, record: { taskStatus: 'inProgress' }, now: t0 + 500 }));
    expect(third).toMatchObject({ sentAt: t0 + 2_001, payload: { sentAt: new Date(t0 + 2_001).toISOString() } });

    // And an event keeps its own time: the platform's sentAt rule does not apply to it.
    const events = await db.selectFrom('outbox').select(['sent_at', 'payload']).where('lane', '=', 'partner').orderBy('id').execute();
    expect(events.map((row) => Number(row.sent_at))).toEqual([t0 + 1_000, t0 + 60_000, t0 + 90_000]);
    expect(events.map((row) => (JSON.parse(row.payload) as { timestamp: string }).timestamp)).toEqual(
      [t0 + 1_000, t0 + 60_000, t0 + 90_000].map((ms) => new Date(ms).toISOString()),
    );
  });
});
