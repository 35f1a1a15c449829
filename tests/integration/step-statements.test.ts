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
 * A step must still lock its task, then read the attempt's history (graded tries) and the task's last sentAt
 * (docs/platform.md#the-update-endpoint), then write the task, its update and its history entries, in one
 * transaction. Postgres writes them in one statement (task-writes.repository.ts), SQLite one row per statement.
 */
describe.each(testDatabases)('statements of the step transaction on $name', (engine) => {
  let database: TestDatabase;
  let statements: string[];
  let deps: TaskServiceDeps;
  /** Lock and read, then the writes: one statement on Postgres, else one per row. */
  const expected = (rows: number) => 2 + (engine.name === 'postgres' ? 1 : rows);
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

  it('a step of a started attempt: lock, read, then the task, its update and a history entry', async () => {
    const task = context();
    await openTask(deps, task, { address: '127.0.0.1' });
    await startTask(deps, task);
    statements.length = 0;
    const outcome = await submitStep(deps, task, 'welcome', {});
    expect(outcome.task.currentStep).toBe('policy');
    expect(statements).toHaveLength(expected(3));
  });

  it('the first step of an attempt not yet started adds the start: one entry more, the task written once, and no update of its own', async () => {
    const task = context();
    await openTask(deps, task, { address: '127.0.0.1' });
    statements.length = 0;
    const outcome = await submitStep(deps, task, 'welcome', {});
    // The start is the attempt's first interaction (docs/platform.md#statuses-and-transitions): its entry; the step's update says inProgress.
    expect(outcome.task.history.map((entry) => entry.kind)).toEqual(['opened', 'started', 'step_saved']);
    expect(statements).toHaveLength(expected(4));
  });

  it("a restart: lock, read, then the task, its update and the new attempt's first entry", async () => {
    const task = context();
    await openTask(deps, task, { address: '127.0.0.1' });
    await submitStep(deps, task, 'welcome', {});
    await submitStep(deps, task, 'policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    statements.length = 0;
    const view = await restartTask(deps, task);
    expect(view.history.map((entry) => entry.kind)).toEqual(['restarted']);
    expect(statements).toHaveLength(expected(3));
  });
});
