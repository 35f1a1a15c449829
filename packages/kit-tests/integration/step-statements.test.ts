import { randomUUID } from 'node:crypto';
import { sql, type KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '@partner-task-kit/server/store/store';
import type { TaskServiceDeps } from '@partner-task-kit/server/task-progress/locked-task';
import { submitStep } from '@partner-task-kit/server/task-progress/step.service';
import { openTask, restartTask, startTask } from '@partner-task-kit/server/task-progress/task.service';
import { POLICY_VERSION } from '../fixtures/workflows/safety-training/definition';
import { openPostgresTestDatabase, testDatabases, type TestDatabase } from '../helpers/test-databases';
import { sensitiveKeyRingOf } from '@partner-task-kit/server/sensitive/sensitive-keys';
import { testWorkflows } from '../helpers/test-workflows';

/** The services' dependencies around `store`: every company served, no limits, nothing logged. */
const depsFor = (store: Store): TaskServiceDeps => ({
  store,
  clock: { now: () => Date.now() },
  partnerUrlTemplate: undefined,
  onUpdateEnqueued: () => {},
  companies: { serves: () => true },
  newTaskLimits: { perAddressPerHour: 0, perCompanyPerHour: 0 },
  sensitiveKeys: sensitiveKeyRingOf({ sensitiveKeys: { keys: [{ kid: 'test', key: new Uint8Array(32) }] } }),
  log: { warn: () => {} },
  workflows: testWorkflows,
});

const context = () => ({
  wxWorkerUuid: randomUUID(),
  wxAssignedTaskUuid: randomUUID(),
  wxTaskFlowUuid: randomUUID(),
  wxCompanyUuid: randomUUID(),
});

/**
 * The step endpoint's cost is mostly its statements (packages/kit-tests/bench/api.ts): each one a round trip on Postgres and a write to
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
    deps = depsFor(counted);
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

  it("a restart: lock, read, the claim of the earlier attempts' unnamed files, then the task, its update and the new attempt's first entry", async () => {
    const task = context();
    await openTask(deps, task, { address: '127.0.0.1' });
    await submitStep(deps, task, 'welcome', {});
    await submitStep(deps, task, 'policy', { acknowledged: true, policyVersion: POLICY_VERSION });
    statements.length = 0;
    const view = await restartTask(deps, task);
    expect(view.history.map((entry) => entry.kind)).toEqual(['restarted']);
    // The claim is one statement, whatever it finds (docs/operations.md#files).
    expect(statements).toHaveLength(expected(3) + 1);
  });
});

describe('prepared statements on Postgres', () => {
  /** What the connection of one transaction has prepared, after a step ran in that same transaction's connection. */
  const preparedAfterStep = async (database: TestDatabase) => {
    const task = context();
    await openTask(depsFor(database.store), task, { address: '127.0.0.1' });
    // One connection for the step and the look: a store whose transact is the one open transaction.
    return database.store.db.transaction().execute(async (trx) => {
      const inOneConnection: Store = { ...database.store, db: trx, transact: (work) => work(trx) };
      const outcome = await submitStep(depsFor(inOneConnection), task, 'welcome', {});
      expect(outcome.task.currentStep).toBe('policy');
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx);
      return rows.map((row) => row.statement);
    });
  };

  it('sends the lock, the read and the write of a step by name, parsed once per connection', async () => {
    const database = await openPostgresTestDatabase();
    try {
      const prepared = await preparedAfterStep(database);
      expect(prepared).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^select "id", .* from "tasks" where "assigned_task_key" = \$1 for update$/),
          expect.stringMatching(/^select "last"\."last_sent_at"/),
          expect.stringMatching(/^with saved as \(/),
        ]),
      );
    } finally {
      await database.cleanup();
    }
  });

  it('goes on after a migration adds a column, as an old instance does during a rolling upgrade', async () => {
    const database = await openPostgresTestDatabase();
    try {
      await preparedAfterStep(database);
      // A prepared `select *` would now fail with "cached plan must not change result type".
      await sql`alter table tasks add column next_release_column text`.execute(database.store.db);
      await sql`alter table task_history add column next_release_column text`.execute(database.store.db);
      expect(await preparedAfterStep(database)).toEqual(expect.arrayContaining([expect.stringMatching(/^with saved as \(/)]));
    } finally {
      await database.cleanup();
    }
  });

  it('prepares nothing with POSTGRES_PREPARED_STATEMENTS=false, for a pooler that cannot keep them', async () => {
    const database = await openPostgresTestDatabase({}, { preparedStatements: false });
    try {
      expect(await preparedAfterStep(database)).toEqual([]);
    } finally {
      await database.cleanup();
    }
  });
});
