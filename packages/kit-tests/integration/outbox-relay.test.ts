import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '@partner-task-kit/server/clock';
import { Registry } from 'prom-client';
import { createDeliveryMetrics } from '@partner-task-kit/server/delivery/delivery-metrics';
import { createOutboxRelay, type OutboxRelay } from '@partner-task-kit/server/delivery/outbox-relay';
import type { OutboxRelayOptions } from '@partner-task-kit/server/delivery/relay-options';
import type { RetryPolicy } from '@partner-task-kit/server/delivery/retry-policy';
import { EMULATOR_CREDENTIAL, type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import type { TrailEntry } from '@partner-task-kit/dev/emulator/task-rules';
import { heldForPermission, listUpdatesForTask, outboxStats, retryDead } from '@partner-task-kit/server/store/outbox-status.repository';
import type { Store } from '@partner-task-kit/server/store/store';
import { createWorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { control } from '../helpers/emulator-control';
import { createTask, enqueue, type FixtureTask } from '../helpers/outbox-fixtures';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';

/** Fast retries so a burst of failures resolves in milliseconds; the policy's own shape is pinned in its unit test. */
const quickPolicy: RetryPolicy = {
  baseDelayMs: 5,
  maxDelayMs: 50,
  retryAfterMaxMs: 50,
  giveUpAfterMs: 60_000,
  openAfterFailures: 5,
  probeMaxMs: 50,
  refusalDelaysMs: [5, 5],
  successVouchesMs: 24 * 60 * 60_000,
};
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe.each(testDatabases)('outbox relay on $name', (database) => {
  let db: TestDatabase;
  let store: Store;
  let emulator: RunningEmulator;
  let relay: OutboxRelay | undefined;

  beforeEach(async () => {
    db = await database.open();
    store = db.store;
    emulator = await startEmulator();
  });

  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    await emulator.close();
    await db.cleanup();
  });

  function startRelay(options: Partial<Pick<OutboxRelayOptions, 'concurrency' | 'pollMs' | 'log' | 'metrics'>> = {}) {
    const url = emulator.url;
    const client = createWorkforceClient({
      upstream: { authUrl: url, baseUrl: url, taskBaseUrl: url, credential: { ...EMULATOR_CREDENTIAL }, timeoutMs: 2000 },
      clock: systemClock,
    });
    relay = createOutboxRelay({ store, client, clock: systemClock, log: silent, policy: quickPolicy, pollMs: 60_000, ...options });
    relay.start();
    return { relay, client };
  }

  /** The numbers (from `details`) of the updates the emulator applied to a task, in the order it applied them. */
  function applied(task: FixtureTask): string[] {
    const trail: TrailEntry[] = emulator.state.assignments.get(task.assignedTaskUuid)?.trail ?? [];
    return trail.flatMap((entry) =>
      entry.kind === 'partner' && entry.outcome === 'applied' ? [entry.record.partnerStatus?.details ?? ''] : [],
    );
  }

  const numbers = (count: number) => Array.from({ length: count }, (_, index) => String(index));

  it('delivers every update, each task in the order written, while tasks interleave', async () => {
    const tasks = await Promise.all(Array.from({ length: 12 }, () => createTask(store, systemClock)));
    for (let index = 0; index < 8; index += 1) {
      for (const task of tasks) await enqueue(store, systemClock, task, index);
    }
    startRelay({ concurrency: 4 });
    for (const task of tasks) await expect.poll(() => applied(task), { timeout: 10_000 }).toEqual(numbers(8));
    const trail = emulator.state.assignments.get(tasks[0]!.assignedTaskUuid)?.trail ?? [];
    expect(trail.every((entry) => entry.kind === 'partner' && entry.outcome === 'applied')).toBe(true);
  }, 60_000);

  it('starts delivering a new row at once, without waiting for the poll', async () => {
    const task = await createTask(store, systemClock);
    const { relay: running } = startRelay({ pollMs: 60_000 });
    await enqueue(store, systemClock, task, 0);
    running.wake();
    // Well within the 60 s poll, and long enough for a busy machine to make the one delivery.
    await expect.poll(() => applied(task), { timeout: 20_000 }).toEqual(['0']);
  }, 60_000);

  it('rides out a burst of 5xx and 429 answers, losing nothing and keeping order', async () => {
    const tasks = await Promise.all(Array.from({ length: 3 }, () => createTask(store, systemClock)));
    for (let index = 0; index < 5; index += 1) for (const task of tasks) await enqueue(store, systemClock, task, index);
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'status', status: 503, count: 6 });
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'rateLimit', retryAfterSeconds: 1, count: 2 });
    startRelay({ concurrency: 3 });
    for (const task of tasks) await expect.poll(() => applied(task), { timeout: 15_000 }).toEqual(numbers(5));
    const statuses = (await control(emulator.url).requests('partnerTask')).map((request) => request.status);
    expect(statuses.filter((status) => status === 503)).toHaveLength(6);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    for (const task of tasks) {
      const states = async () => (await listUpdatesForTask(store.db, task.id)).map((row) => row.state);
      await expect.poll(states, { timeout: 10_000 }).toEqual(Array(5).fill('delivered'));
    }
  }, 60_000);

  it('moves a permanently refused update to dead letters without blocking the task, and re-drives it on retry', async () => {
    const task = await createTask(store, systemClock);
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'status', status: 422, count: 1 });
    await enqueue(store, systemClock, task, 0);
    await enqueue(store, systemClock, task, 1);
    startRelay();
    const states = async () => (await listUpdatesForTask(store.db, task.id)).map((row) => row.state);
    await expect.poll(states, { timeout: 15_000 }).toEqual(['dead', 'delivered']);
    expect(applied(task)).toEqual(['1']);
    const [dead, delivered] = await listUpdatesForTask(store.db, task.id);
    expect(dead).toMatchObject({ state: 'dead', deadReason: expect.stringContaining('HTTP 422') });
    expect(delivered).toMatchObject({ state: 'delivered' });

    await retryDead(store.db, dead!.id, systemClock.now());
    relay?.wake();
    await expect.poll(states, { timeout: 15_000 }).toEqual(['delivered', 'delivered']);
    // Re-driven late, its sentAt is older than the update already applied: the platform ignores it (spec 3).
    const trail = emulator.state.assignments.get(task.assignedTaskUuid)?.trail ?? [];
    expect(trail.map((entry) => (entry.kind === 'partner' ? entry.outcome : entry.kind))).toEqual(['applied', 'obsolete']);
  }, 60_000);

  it('holds every update while the platform answers 403, says the permission is the likely cause, and resumes by itself', async () => {
    const emulatorControl = control(emulator.url);
    await emulatorControl.settings({ partnerTaskPermission: false });
    const tasks = await Promise.all(Array.from({ length: 8 }, () => createTask(store, systemClock)));
    for (const task of tasks) for (let index = 0; index < 2; index += 1) await enqueue(store, systemClock, task, index);
    const errors: string[] = [];
    const log = { ...silent, error: (_object: object, message: string) => errors.push(message) };
    const registry = new Registry();
    startRelay({ concurrency: 4, log, metrics: createDeliveryMetrics(registry) });

    await expect.poll(() => errors.some((message) => message.includes('lacks the permission')), { timeout: 15_000 }).toBe(true);
    const refused = async () => (await emulatorControl.requests('partnerTask')).filter((request) => request.status === 403).length;
    const afterOpening = await refused();
    // Held, not dead: the probes go on, one at a time, backing off; nothing becomes a dead letter.
    await expect.poll(refused, { timeout: 15_000 }).toBeGreaterThan(afterOpening + 2);
    expect(await registry.getSingleMetricAsString('partner_task_delivery_circuit_open')).toContain(
      'partner_task_delivery_circuit_open{tenant="default",cause="forbidden",lane="platform"} 1',
    );
    expect((await outboxStats(store.db, systemClock.now())).dead).toBe(0);
    expect((await heldForPermission(store.db, systemClock.now())).forbidden).toBeGreaterThan(0);

    // The role gets its permission: the next probe gets through and every held update follows, each task in order.
    await emulatorControl.settings({ partnerTaskPermission: true });
    for (const task of tasks) await expect.poll(() => applied(task), { timeout: 15_000 }).toEqual(numbers(2));
    await expect.poll(async () => (await outboxStats(store.db, systemClock.now())).pending, { timeout: 10_000 }).toBe(0);
    expect(errors.filter((message) => message.includes('dead letters'))).toEqual([]);
    expect(await registry.getSingleMetricAsString('partner_task_delivery_circuit_open')).toContain(
      'partner_task_delivery_circuit_open{tenant="default",cause="none",lane="platform"} 0',
    );
  }, 60_000);

  it('rejects a task the platform keeps refusing as unknown while it takes others, and sends nothing more for it', async () => {
    const emulatorControl = control(emulator.url);
    await emulatorControl.settings({ unknownTasks: 'reject' });
    const [known, invented] = await Promise.all([createTask(store, systemClock), createTask(store, systemClock)]);
    await emulatorControl.assign(known!.assignedTaskUuid);
    for (const task of [known!, invented!]) for (let index = 0; index < 2; index += 1) await enqueue(store, systemClock, task, index);
    startRelay({ concurrency: 2 });

    await expect.poll(() => applied(known!), { timeout: 15_000 }).toEqual(numbers(2));
    const task = async () =>
      store.db.selectFrom('tasks').select(['rejected_at', 'rejected_reason']).where('id', '=', invented!.id).executeTakeFirstOrThrow();
    await expect.poll(async () => (await task()).rejected_at, { timeout: 15_000 }).not.toBeNull();
    expect((await task()).rejected_reason).toMatch(/refused the task 3 times \(HTTP 404\)/);
    const states = (await listUpdatesForTask(store.db, invented!.id)).map((row) => [row.state, row.deadReason?.slice(0, 14)]);
    expect(states).toEqual([
      ['dead', 'task rejected:'],
      ['dead', 'task rejected:'],
    ]);
    // One try and the policy's two retries (three in production: six tries over 75 s), then nothing more.
    const sentFor = async () =>
      (await emulatorControl.requests('partnerTask')).filter((r) => r.path.endsWith(invented!.assignedTaskUuid)).length;
    expect(await sentFor()).toBe(3);
    relay?.wake();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await sentFor()).toBe(3);
  }, 60_000);

  it('sends rows claimed ahead as slots free up, and puts back in line those that waited too long for a slow platform', async () => {
    const tasks = await Promise.all(Array.from({ length: 4 }, () => createTask(store, systemClock)));
    for (const task of tasks) await enqueue(store, systemClock, task, 0);
    // Each answer takes 1.2 s: with one slot, the rows claimed ahead wait longer than a lease may allow them to.
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 1_200, count: 4 });
    startRelay({ concurrency: 1 });
    for (const task of tasks) await expect.poll(() => applied(task), { timeout: 15_000 }).toEqual(numbers(1));
    // Never two at once with one slot, and each sent exactly once.
    const requests = await control(emulator.url).requests('partnerTask');
    expect(requests).toHaveLength(4);
    await expect
      .poll(async () => (await store.db.selectFrom('outbox').select('id').where('locked_by', 'is not', null).execute()).length, {
        timeout: 10_000,
      })
      .toBe(0);
  }, 30_000);

  it('claims ahead at most 4 x its concurrency for a slow platform, and on Postgres up to 16 x while it keeps pace', async () => {
    const maxLeased = async (until: () => Promise<boolean>) => {
      let max = 0;
      while (!(await until())) {
        const leased = await store.db.selectFrom('outbox').select('id').where('locked_by', 'is not', null).execute();
        max = Math.max(max, leased.length);
        // A macrotask between looks: SQLite answers in microtasks, and the relay's HTTP answers need the event loop.
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      return max;
    };
    const pendingLeft = async () =>
      (await store.db.selectFrom('outbox').select('id').where('state', '=', 'pending').execute()).length === 0;
    const tasks = await Promise.all(Array.from({ length: 300 }, () => createTask(store, systemClock)));
    for (const task of tasks) await enqueue(store, systemClock, task, 0);
    startRelay({ concurrency: 2 });
    const fast = await maxLeased(pendingLeft);
    // In flight and ahead together: 8 on SQLite, where a long claim would stall the event loop; more on Postgres.
    if (database.name === 'sqlite') expect(fast).toBeLessThanOrEqual(8);
    else expect(fast).toBeGreaterThan(8);
    expect(fast).toBeLessThanOrEqual(32);

    await relay?.stop();
    const slowTasks = await Promise.all(Array.from({ length: 12 }, () => createTask(store, systemClock)));
    for (const task of slowTasks) await enqueue(store, systemClock, task, 0);
    // 300 ms an answer: two slots take about 7 rows a second, so more ahead would wait out their release.
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 300, count: 12 });
    await new Promise((resolve) => setTimeout(resolve, 2_100)); // the fast pace is two seconds old
    startRelay({ concurrency: 2 });
    expect(await maxLeased(pendingLeft)).toBeLessThanOrEqual(8);
  }, 30_000);

  it('keeps only one update of a task in flight at a time', async () => {
    const task = await createTask(store, systemClock);
    for (let index = 0; index < 4; index += 1) await enqueue(store, systemClock, task, index);
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 100, count: 4 });
    const started = Date.now();
    startRelay({ concurrency: 8 });
    await expect.poll(() => applied(task), { timeout: 15_000 }).toEqual(numbers(4));
    // Four 100 ms deliveries one after another: had two overlapped, this would take under 400 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  }, 60_000);

  it('finishes the delivery in flight when stopped, and leaves the rest pending for the next start', async () => {
    const task = await createTask(store, systemClock);
    for (let index = 0; index < 3; index += 1) await enqueue(store, systemClock, task, index);
    // The first delivery takes 1 s, so the relay is stopped while it is in flight even when a busy machine is slow to
    // see the request arrive; and 1 s short of the client's timeout (2 s), so it is delivered, not timed out.
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 1_000, count: 1 });
    const { relay: running } = startRelay();
    await expect.poll(async () => (await control(emulator.url).requests('partnerTask')).length, { timeout: 10_000 }).toBe(1);
    await running.stop();
    relay = undefined;
    const rows = await listUpdatesForTask(store.db, task.id);
    expect(rows.map((row) => row.state)).toEqual(['delivered', 'pending', 'pending']);
    expect(rows.every((row) => row.lockedBy === null)).toBe(true);

    startRelay();
    await expect.poll(() => applied(task), { timeout: 15_000 }).toEqual(numbers(3));
  }, 60_000);
});
