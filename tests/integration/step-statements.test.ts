import { randomUUID } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../server/store/store';
import type { TaskServiceDeps } from '../../server/task-progress/locked-task';
import { submitStep } from '../../server/task-progress/step.service';
import { openTask, restartTask, startTask } from '../../server/task-progress/task.service';
import { POLICY_VERSION } from '../../src/workflows/safety-training/definition';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';

/**
 * The step endpoint's cost is mostly its statements (bench/api.ts): each one a round trip on Postgres and a write to
 * the WAL on SQLite. The statements of a step are pinned here, so one added without need shows up as a failing test.
 * A step must still read and lock its task, read the attempt's history (graded tries), write the task, its update
 * (after reading the task's last sentAt, docs/platform.md#the-update-endpoint) and a history entry, in one transaction.
 */
describe.each(testDatabases)('statements of the step transaction on $name', (engine) => {
  let database: TestDatabase;
  let statements: string[];
  let deps: TaskServiceDeps;
  const context = () => ({
    wxWorkerUuid: randomUUID(),
    wxAssignedTaskUuid: randomUUID(),
    wxTaskFlowUuid: randomUUID(),
    wxCompanyUuid: randomUUID(),
  });

  beforeEach(async () => {
    database = await engine.open();
    statements = [];
    // Told of every statement's result, those compiled once included (begin and commit are the driver's, not counted).
    const counter: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements.push(args.queryId.queryId);
        return args.result;
      },
    };
    const { store } = database;
    const counted: Store = {
      ...store,
      db: store.db.withPlugin(counter),
      transact: (work) => store.transact((trx) => work(trx.withPlugin(counter))),
    };
    deps = {
      store: counted,
      clock: { now: () => Date.now() },
      partnerUrlTemplate: undefined,
      onUpdateEnqueued: () => {},
      companies: { serves: () => true },
      newTaskLimits: { perAddressPerHour: 0, perCompanyPerHour: 0 },
      log: { warn: () => {} },
    } as unknown as TaskServiceDeps;
  });
  afterEach(async () => {
    await database.cleanup();
  });

  it('a step of a started attempt runs six statements: lock, history, task, last sentAt, update, history entry', async () => {
    const task = context();
    await openTask(deps, task, { address: '127.0.0.1' });
    await startTask(deps, task);
    statements.length = 0;
    const outcome = await submitStep(deps, task, 'welcome', {});
    expect(outcome.task.currentStep).toBe('policy');
    expect(statements).toHaveLength(6);
  });

  it('the first step of an attempt not yet started adds the start: two more (task, entry), and no update of its own', async () => {
    const task = context();
    await openTask(deps, task, { address: '127.0.0.1' });
    statements.length = 0;
    await submitStep(deps, task, 'welcome', {});
    // The start is the attempt's first interaction (docs/platform.md#statuses-and-transitions): its task write and entry; the step's update says inProgress.
    expect(statements).toHaveLength(8);
  });

  it("a restart runs six: lock, task, last sentAt, update, history entry, and the new attempt's history for its view", async () => {
    const task = context();
    await openTask(deps, task, { address: '127.0.0.1' });
    await submitStep(deps, task, 'welcome', {});
    await submitStep(deps, task, 'policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    statements.length = 0;
    const view = await restartTask(deps, task);
    expect(view.history.map((entry) => entry.kind)).toEqual(['restarted']);
    expect(statements).toHaveLength(6);
  });
});
