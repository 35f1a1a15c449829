import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '@partner-task-kit/server/clock';
import { Registry } from 'prom-client';
import { createDeliveryMetrics } from '@partner-task-kit/server/delivery/delivery-metrics';
import { createOutboxRelay, type OutboxRelay } from '@partner-task-kit/server/delivery/outbox-relay';
import type { OutboxRelayOptions } from '@partner-task-kit/server/delivery/relay-options';
import type { RetryPolicy } from '@partner-task-kit/server/delivery/retry-policy';
import { EMULATOR_CREDENTIAL, type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import type { TrailEntry } from '@partner-task-kit/dev/emulator/task-rules';
import {
  heldForPermission,
  listUpdatesForTask,
  outboxStatsByLane,
  retryDead,
} from '@partner-task-kit/server/store/outbox-status.repository';
import type { Store } from '@partner-task-kit/server/store/store';
import { createWorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { control } from '../helpers/emulator-control';
import { taskServices, type ServiceTask, type TaskServices } from '../helpers/task-services';
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
  let services: TaskServices;

  beforeEach(async () => {
    db = await database.open();
    store = db.store;
    services = taskServices(store);
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

  /** The updates the emulator applied to a task (their `details`, which no two of a task share), in that order. */
  function applied(task: ServiceTask): string[] {
    const trail: TrailEntry[] = emulator.state.assignments.get(task.assignedTaskUuid)?.trail ?? [];
    return trail.flatMap((entry) =>
      entry.kind === 'partner' && entry.outcome === 'applied' ? [entry.record.partnerStatus?.details ?? ''] : [],
    );
  }

  /** The task's updates as written, in the order written: what the platform must apply, and in which order. */
  const written = async (task: ServiceTask) =>
    (await listUpdatesForTask(store.db, task.id)).map((update) => update.payload.partnerStatus?.details ?? '');

  /** Tasks opened by workers, each with `count` updates written (its `ready`, then starts and restarts). */
  async function tasksWithUpdates(tasks: number, count: number): Promise<ServiceTask[]> {
    const opened = await Promise.all(Array.from({ length: tasks }, () => services.open()));
    // Task after task, update after update: the tasks' rows interleave in the outbox.
    for (let index = 1; index < count; index += 1) for (const task of opened) await services.nextUpdate(task);
    return opened;
  }

  it('delivers every update, each task in the order written, while tasks interleave', async () => {
    const tasks = await tasksWithUpdates(12, 8);
    startRelay({ concurrency: 4 });
    for (const task of tasks) await expect.poll(() => applied(task), { timeout: 10_000 }).toEqual(await written(task));
    expect(await written(tasks[0]!)).toHaveLength(8);
    const trail = emulator.state.assignments.get(tasks[0]!.assignedTaskUuid)?.trail ?? [];
    expect(trail.every((entry) => entry.kind === 'partner' && entry.outcome === 'applied')).toBe(true);
  }, 60_000);

  it('starts delivering a new row at once, without waiting for the poll', async () => {
    const { relay: running } = startRelay({ pollMs: 60_000 });
    const task = await taskServices(store, { onUpdateEnqueued: () => running.wake() }).open();
    // Well within the 60 s poll, and long enough for a busy machine to make the one delivery.
    await expect.poll(() => applied(task), { timeout: 20_000 }).toEqual(await written(task));
  }, 60_000);

  it('rides out a burst of 5xx and 429 answers, losing nothing and keeping order', async () => {
    const tasks = await tasksWithUpdates(3, 5);
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'status', status: 503, count: 6 });
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'rateLimit', retryAfterSeconds: 1, count: 2 });
    startRelay({ concurrency: 3 });
    for (const task of tasks) await expect.poll(() => applied(task), { timeout: 15_000 }).toEqual(await written(task));
    const statuses = (await control(emulator.url).requests('partnerTask')).map((request) => request.status);
    expect(statuses.filter((status) => status === 503)).toHaveLength(6);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    for (const task of tasks) {
      const states = async () => (await listUpdatesForTask(store.db, task.id)).map((row) => row.state);
      await expect.poll(states, { timeout: 10_000 }).toEqual(Array(5).fill('delivered'));
    }
  }, 60_000);

  it('moves a permanently refused update to dead letters without blocking the task, and re-drives it on retry', async () => {
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'status', status: 422, count: 1 });
    const task = (await tasksWithUpdates(1, 2))[0]!;
    startRelay();
    const states = async () => (await listUpdatesForTask(store.db, task.id)).map((row) => row.state);
    await expect.poll(states, { timeout: 15_000 }).toEqual(['dead', 'delivered']);
    expect(applied(task)).toEqual((await written(task)).slice(1));
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
    const tasks = await tasksWithUpdates(8, 2);
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
    expect((await outboxStatsByLane(store.db, systemClock.now())).platform.dead).toBe(0);
    expect((await heldForPermission(store.db, systemClock.now())).forbidden).toBeGreaterThan(0);

    // The role gets its permission: the next probe gets through and every held update follows, each task in order.
    await emulatorControl.settings({ partnerTaskPermission: true });
    for (const task of tasks) await expect.poll(() => applied(task), { timeout: 15_000 }).toEqual(await written(task));
    await expect.poll(async () => (await outboxStatsByLane(store.db, systemClock.now())).platform.pending, { timeout: 10_000 }).toBe(0);
    expect(errors.filter((message) => message.includes('dead letters'))).toEqual([]);
    expect(await registry.getSingleMetricAsString('partner_task_delivery_circuit_open')).toContain(
      'partner_task_delivery_circuit_open{tenant="default",cause="none",lane="platform"} 0',
    );
  }, 60_000);

  it('rejects a task the platform keeps refusing as unknown while it takes others, and sends nothing more for it', async () => {
    const emulatorControl = control(emulator.url);
    await emulatorControl.settings({ unknownTasks: 'reject' });
    const [known, invented] = await tasksWithUpdates(2, 2);
    await emulatorControl.assign(known!.assignedTaskUuid);
    startRelay({ concurrency: 2 });

    await expect.poll(() => applied(known!), { timeout: 15_000 }).toEqual(await written(known!));
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
    const tasks = await tasksWithUpdates(4, 1);
    // Each answer takes 1.2 s: with one slot, the rows claimed ahead wait longer than a lease may allow them to.
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 1_200, count: 4 });
    startRelay({ concurrency: 1 });
    for (const task of tasks) await expect.poll(() => applied(task), { timeout: 15_000 }).toEqual(await written(task));
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
    await tasksWithUpdates(300, 1);
    startRelay({ concurrency: 2 });
    const fast = await maxLeased(pendingLeft);
    // In flight and ahead together: 8 on SQLite, where a long claim would stall the event loop; more on Postgres.
    if (database.name === 'sqlite') expect(fast).toBeLessThanOrEqual(8);
    else expect(fast).toBeGreaterThan(8);
    expect(fast).toBeLessThanOrEqual(32);

    await relay?.stop();
    await tasksWithUpdates(12, 1);
    // 300 ms an answer: two slots take about 7 rows a second, so more ahead would wait out their release.
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 300, count: 12 });
    await new Promise((resolve) => setTimeout(resolve, 2_100)); // the fast pace is two seconds old
    startRelay({ concurrency: 2 });
    expect(await maxLeased(pendingLeft)).toBeLessThanOrEqual(8);
  }, 30_000);

  it('keeps only one update of a task in flight at a time', async () => {
    const task = (await tasksWithUpdates(1, 4))[0]!;
    await control(emulator.url).fault({ endpoint: 'partnerTask', kind: 'delay', delayMs: 100, count: 4 });
    const started = Date.now();
    startRelay({ concurrency: 8 });
    await expect.poll(() => applied(task), { timeout: 15_000 }).toEqual(await written(task));
    // Four 100 ms deliveries one after another: had two overlapped, this would take under 400 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  }, 60_000);

  it('finishes the delivery in flight when stopped, and leaves the rest pending for the next start', async () => {
    const task = (await tasksWithUpdates(1, 3))[0]!;
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
    await expect.poll(() => applied(task), { timeout: 15_000 }).toEqual(await written(task));
  }, 60_000);
});
