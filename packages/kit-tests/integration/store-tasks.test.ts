import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendHistory, listHistory } from '@partner-task-kit/server/store/task-history.repository';
import {
  findTaskByAssignedTaskUuid,
  findTaskById,
  insertTaskIfAbsent,
  lockTaskByAssignedTaskUuid,
  purgeUnconfirmedTasks,
  saveLockedTask,
} from '@partner-task-kit/server/store/tasks.repository';
import type { NewTask } from '@partner-task-kit/server/store/tasks.repository';
import { ManualClock } from '../helpers/manual-clock';
import { taskServices } from '../helpers/task-services';
import { testDatabases } from '../helpers/test-databases';
import type { TestDatabase } from '../helpers/test-databases';
import { listUpdatesForTask } from '@partner-task-kit/server/store/outbox-status.repository';

const t0 = 1_700_000_000_000;
const newTaskInput = (): NewTask => ({
  assignedTaskUuid: randomUUID(),
  workerUuid: randomUUID(),
  taskFlowUuid: randomUUID(),
  companyUuid: randomUUID(),
  workflowId: 'onboarding-quiz',
  now: t0,
});

describe.each(testDatabases)('tasks and their history on $name', (engine) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await engine.open();
  });
  afterEach(() => t.cleanup());

  it('creates a ready task on its first attempt, found by id and by assigned task', async () => {
    const input = newTaskInput();
    const { task, created } = await insertTaskIfAbsent(t.store.db, input);
    expect(created).toBe(true);
    expect(task).toMatchObject({
      assignedTaskUuid: input.assignedTaskUuid,
      status: 'ready',
      attempt: 1,
      stepData: {},
      currentStep: null,
      attemptStartedAt: null,
    });
    expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await findTaskById(t.store.db, task.id)).toEqual(task);
    expect(await findTaskByAssignedTaskUuid(t.store.db, input.assignedTaskUuid)).toEqual(task);
    expect(await findTaskById(t.store.db, randomUUID())).toBeUndefined();
  });

  it('insertTaskIfAbsent creates once, then returns the same task', async () => {
    const input = newTaskInput();
    const [first, second] = await Promise.all([insertTaskIfAbsent(t.store.db, input), insertTaskIfAbsent(t.store.db, input)]);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(second.task).toEqual(first.task);
  });

  it('saves only the given changes and the update time, and returns the task exactly as it is then stored', async () => {
    const { task } = await insertTaskIfAbsent(t.store.db, newTaskInput());
    const saved = await t.store.db.transaction().execute(async (trx) => {
      const locked = await lockTaskByAssignedTaskUuid(trx, task.assignedTaskUuid);
      const changes = {
        status: 'inProgress',
        currentStep: 'quiz',
        stepData: { intro: { agreed: true } },
        attemptStartedAt: t0 + 1,
      } as const;
      return saveLockedTask(trx, locked!, changes, t0 + 2);
    });
    expect(saved).toEqual({
      ...task,
      status: 'inProgress',
      currentStep: 'quiz',
      stepData: { intro: { agreed: true } },
      attemptStartedAt: t0 + 1,
      updatedAt: t0 + 2,
    });
    expect(await findTaskById(t.store.db, task.id)).toEqual(saved);
    const cleared = await saveLockedTask(t.store.db, saved, { currentStep: null, failedReason: 'quiz failed twice' }, t0 + 3);
    expect(cleared).toMatchObject({ currentStep: null, failedReason: 'quiz failed twice', status: 'inProgress' });
    expect(await findTaskById(t.store.db, task.id)).toEqual(cleared);
  });

  it('lockTaskByAssignedTaskUuid makes concurrent read-modify-write transactions apply one after the other', async () => {
    const { task } = await insertTaskIfAbsent(t.store.db, newTaskInput());
    // Postgres: two pools, as two server processes. SQLite: one store per process (see the helper).
    const other = engine.name === 'postgres' ? (await t.openStore()).db : t.store.db;
    const bump = (db: typeof other) =>
      db.transaction().execute(async (trx) => {
        const current = await lockTaskByAssignedTaskUuid(trx, task.assignedTaskUuid);
        await new Promise((resolve) => setTimeout(resolve, 20));
        await saveLockedTask(trx, current!, { attempt: current!.attempt + 1 }, t0);
      });
    await Promise.all([bump(t.store.db), bump(other), bump(t.store.db), bump(other)]);
    expect((await findTaskById(t.store.db, task.id))?.attempt).toBe(5);
  });

  it('keeps the history of a task in the order it happened, with its details', async () => {
    const { task } = await insertTaskIfAbsent(t.store.db, newTaskInput());
    await appendHistory(t.store.db, { taskId: task.id, attempt: 1, kind: 'opened', at: t0 + 5 });
    await appendHistory(t.store.db, {
      taskId: task.id,
      attempt: 1,
      kind: 'graded_step_failed',
      stepId: 'quiz',
      detail: { score: 2, of: 5 },
      at: t0 + 1,
    });
    const history = await listHistory(t.store.db, task.id);
    expect(history.map(({ kind, stepId, detail, at }) => ({ kind, stepId, detail, at }))).toEqual([
      { kind: 'opened', stepId: null, detail: null, at: t0 + 5 },
      { kind: 'graded_step_failed', stepId: 'quiz', detail: { score: 2, of: 5 }, at: t0 + 1 },
    ]);
  });

  it('refuses history for a task that does not exist (foreign keys are on)', async () => {
    await expect(appendHistory(t.store.db, { taskId: randomUUID(), attempt: 1, kind: 'opened', at: t0 })).rejects.toThrow();
  });

  it('purges rejected tasks and tasks whose every update died, past the retention, and keeps every other', async () => {
    const clock = new ManualClock(t0);
    const services = taskServices(t.store, { clock });
    const db = t.store.db;
    /** A task opened at `createdAt`, its updates (the first its `ready`) left in `states`, rejected at `rejectedAt`. */
    const make = async (states: Array<'pending' | 'delivered' | 'dead'>, rejectedAt: number | null = null, createdAt = t0) => {
      clock.set(createdAt);
      const task = await services.open();
      for (let more = 1; more < states.length; more += 1) await services.nextUpdate(task);
      const rows = await listUpdatesForTask(db, task.id);
      // Settled by hand: what the relay would leave after deliveries and refusals, without a platform to refuse them.
      for (const [index, state] of states.entries()) {
        if (state !== 'pending') await db.updateTable('outbox').set({ state }).where('id', '=', rows[index]!.id).execute();
      }
      if (rejectedAt !== null) await db.updateTable('tasks').set({ rejected_at: rejectedAt }).where('id', '=', task.id).execute();
      return task.id;
    };
    const rejected = await make(['dead'], t0);
    const allDead = await make(['dead', 'dead']);
    const confirmed = await make(['delivered', 'dead']);
    const waiting = await make(['dead', 'pending']);
    const rejectedLater = await make(['dead'], t0 + 10, t0 + 5);

    expect(await purgeUnconfirmedTasks(db, t0, t0)).toBe(0);
    expect(await purgeUnconfirmedTasks(db, t0 + 1, t0 + 1)).toBe(2);
    const left = (await db.selectFrom('tasks').select('id').execute()).map((row) => row.id).sort();
    expect(left).toEqual([confirmed, waiting, rejectedLater].sort());
    for (const gone of [rejected, allDead]) {
      expect(await db.selectFrom('outbox').select('id').where('task_id', '=', gone).execute()).toEqual([]);
      expect(await listHistory(db, gone)).toEqual([]);
    }
  });
});
