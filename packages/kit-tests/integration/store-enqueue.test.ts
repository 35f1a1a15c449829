import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listUpdatesForTask } from '@partner-task-kit/server/store/outbox-status.repository';
import { findTaskById } from '@partner-task-kit/server/store/tasks.repository';
import { withLockedTask } from '@partner-task-kit/server/task-progress/locked-task';
import { ManualClock } from '../helpers/manual-clock';
import { newContext } from '../helpers/task-app';
import { taskServices, type ServiceTask, type TaskServices } from '../helpers/task-services';
import { testDatabases } from '../helpers/test-databases';
import type { TestDatabase } from '../helpers/test-databases';

const t0 = Date.UTC(2026, 10, 22, 10, 0, 0);

function strictlyIncreasing(values: number[]): boolean {
  return values.every((value, i) => i === 0 || value > values[i - 1]!);
}

describe.each(testDatabases)('enqueueing updates on $name', (engine) => {
  let t: TestDatabase;
  let clock: ManualClock;
  let services: TaskServices;
  beforeEach(async () => {
    t = await engine.open();
    clock = new ManualClock(t0);
    services = taskServices(t.store, { clock });
  });
  afterEach(() => t.cleanup());

  const sentAtsOf = async (task: ServiceTask) => (await listUpdatesForTask(t.store.db, task.id)).map((row) => row.sentAt);

  it('stores the full docs/platform.md record with sentAt as ISO 8601, pending and due now', async () => {
    clock.set(t0 + 5);
    const task = await services.open();
    const [row] = await listUpdatesForTask(t.store.db, task.id);
    expect(row).toMatchObject({
      taskId: task.id,
      assignedTaskUuid: task.assignedTaskUuid,
      sentAt: t0 + 5,
      state: 'pending',
      attempts: 0,
      nextAttemptAt: t0 + 5,
      lockedUntil: null,
      payload: {
        taskStatus: 'ready',
        sentAt: '2026-11-22T10:00:00.005Z',
        partnerId: task.id,
        partnerStatus: { label: expect.any(String), details: 'The worker opened the task.' },
      },
    });
  });

  it('writes nothing when the action fails after deciding: neither the task change nor the update', async () => {
    const task = await services.open();
    const before = await findTaskById(t.store.db, task.id);
    const failing = withLockedTask(services.deps, task.context, async (locked) => {
      await locked.save(locked.task, { status: 'inProgress', currentStep: 'policy' });
      await locked.enqueue({ taskStatus: 'inProgress', partnerId: task.id });
      throw new Error('the action failed after enqueueing');
    });
    await expect(failing).rejects.toThrow('the action failed');
    expect(await findTaskById(t.store.db, task.id)).toEqual(before);
    expect(await sentAtsOf(task)).toEqual([t0]);
  });

  it('rejects a record the platform would refuse and leaves the transaction to roll back', async () => {
    const task = await services.open();
    const refused = withLockedTask(services.deps, task.context, (locked) =>
      locked.enqueue({ taskStatus: 'inProgress', partnerStatus: { label: 'x'.repeat(33) } }),
    );
    await expect(refused).rejects.toThrow();
    expect(await sentAtsOf(task)).toEqual([t0]);
  });

  it('keeps sentAt strictly increasing when the clock steps back', async () => {
    clock.set(t0 + 1000);
    const task = await services.open();
    for (const now of [t0 + 2000, t0 + 500, t0 + 2000, t0 + 3000]) {
      clock.set(now);
      await services.nextUpdate(task);
    }
    expect(await sentAtsOf(task)).toEqual([t0 + 1000, t0 + 2000, t0 + 2001, t0 + 2002, t0 + 3000]);
  });

  it('keeps sentAt strictly increasing for many updates in one millisecond', async () => {
    const task = await services.open();
    for (let i = 1; i < 50; i += 1) await services.nextUpdate(task);
    const rows = await listUpdatesForTask(t.store.db, task.id);
    expect(rows.map((row) => row.sentAt)).toEqual(Array.from({ length: 50 }, (_, i) => t0 + i));
    expect(rows.map((row) => Date.parse(row.payload.sentAt))).toEqual(rows.map((row) => row.sentAt));
  });

  it("keeps each task's sentAt independent of other tasks", async () => {
    const a = await services.open();
    await services.nextUpdate(a);
    const b = await services.open();
    expect(await sentAtsOf(a)).toEqual([t0, t0 + 1]);
    expect(await sentAtsOf(b)).toEqual([t0]);
  });

  it('serializes concurrent updates of one task so id order is sentAt order', async () => {
    const task = await services.open();
    // Postgres: a second pool, as a second server process. SQLite: one process shares one store (see the helper).
    const other = engine.name === 'postgres' ? taskServices(await t.openStore(), { clock }) : services;
    const update = (on: TaskServices) =>
      withLockedTask(on.deps, task.context, (locked) => locked.enqueue({ taskStatus: 'inProgress', partnerId: task.id }));
    await Promise.all([services, other].map((on) => Promise.all(Array.from({ length: 25 }, () => update(on)))));
    const sentAts = await sentAtsOf(task);
    expect(sentAts).toHaveLength(51);
    expect(strictlyIncreasing(sentAts)).toBe(true);
  });

  it('refuses an update of a task that does not exist', async () => {
    const never = { id: 'none', assignedTaskUuid: 'none', companyUuid: 'none', context: newContext() };
    await expect(services.start(never)).rejects.toMatchObject({ code: 'invalid_token' });
    expect(await t.store.db.selectFrom('outbox').select('id').execute()).toEqual([]);
  });
});
