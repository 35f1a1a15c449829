import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { systemClock } from '@partner-task-kit/server/clock';
import { EMULATOR_CREDENTIAL } from '@partner-task-kit/dev';
import { claimDeliverable, markManyDelivered } from '@partner-task-kit/server/store/outbox.repository';
import type { DatabaseSchema, StoreDb } from '@partner-task-kit/server/store/database-schema';
import { IgnoreRowLocksPlugin } from '@partner-task-kit/server/store/ignore-row-locks-plugin';
import type { Store } from '@partner-task-kit/server/store/store';
import type { TaskServiceDeps } from '@partner-task-kit/server/task-progress/locked-task';
import { submitStep } from '@partner-task-kit/server/task-progress/step.service';
import { openTask, restartTask } from '@partner-task-kit/server/task-progress/task.service';
import { createWorkforceClient } from '@partner-task-kit/server/upstream/workforce-client';
import { STEP_CYCLE } from './api-load';
import { round, runPool } from './bench-support';
import { sensitiveKeyRingOf } from '@partner-task-kit/server/sensitive/sensitive-keys';
import { testWorkflows } from '../helpers/test-workflows';

/**
 * The floor of the SQLite step path, measured in the same run as the step load (docs/development.md#benchmarks):
 * - the statements of one cycle of the load (its steps and restart, and the relay's claims and settlements of the
 *   updates they write), recorded from the server's own code and then run directly on better-sqlite3, prepared once,
 *   on a copy of the server's database as the load left it, in the same transactions: the engine's own cost;
 * - one update POSTed to the emulator through the relay's client (http-transport.ts), its CPU per update.
 * With the bare route's CPU per request (Fastify's own cost), their sum is what a step request cannot go below.
 */
export async function measureSqliteStepFloor(options: { databaseFile: string; emulatorUrl: string; cycles: number; posts: number }) {
  const directory = mkdtempSync(join(tmpdir(), 'ptk-bench-floor-'));
  const copy = join(directory, 'floor.db');
  const source = new Database(options.databaseFile, { readonly: true });
  source.exec(`vacuum into '${copy.replaceAll("'", "''")}'`);
  source.close();
  const database = new Database(copy);
  try {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    const { transactions, updates } = await recordCycle(database);
    const statements = new Map<string, Database.Statement>();
    const prepared = (sql: string) => {
      let statement = statements.get(sql);
      if (statement === undefined) statements.set(sql, (statement = database.prepare(sql)));
      return statement;
    };
    const replay = () => {
      for (const transaction of transactions) {
        database.exec('begin immediate');
        for (const query of transaction) {
          const statement = prepared(query.sql);
          const parameters = query.parameters as unknown[];
          if (statement.reader) statement.all(...parameters);
          else statement.run(...parameters);
        }
        database.exec('commit');
      }
    };
    // Each replay appends the cycle's history entries and updates again, to one task: removed after each (unmeasured),
    // so every replay reads what the recorded cycle read, not a history and backlog growing with the replays.
    const lastId = (table: string) => (database.prepare(`select coalesce(max(id), 0) as id from ${table}`).get() as { id: number }).id;
    const kept = { history: lastId('task_history'), outbox: lastId('outbox') };
    const removeReplayed = () => {
      database.prepare('delete from task_history where id > ?').run(kept.history);
      database.prepare('delete from outbox where id > ?').run(kept.outbox);
    };
    replay();
    removeReplayed();
    let usedMicros = 0;
    for (let cycle = 0; cycle < options.cycles; cycle += 1) {
      const before = process.cpuUsage();
      replay();
      const used = process.cpuUsage(before);
      usedMicros += used.user + used.system;
      removeReplayed();
    }
    const statementsMsPerRequest = usedMicros / 1000 / options.cycles / STEP_CYCLE.length;

    const postMs = await measurePosts(options.emulatorUrl, updates[0]!, options.posts);
    return {
      statementsCpuMsPerRequest: round(statementsMsPerRequest, 3),
      statementsPerRequest: round(transactions.flat().length / STEP_CYCLE.length, 1),
      updatePostCpuMs: round(postMs, 3),
      updatesPerRequest: round(updates.length / STEP_CYCLE.length, 2),
    };
  } finally {
    database.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

type Recorded = { transactions: CompiledQuery[][]; updates: { assignedTaskUuid: string; payload: unknown }[] };

/** One task through the load's cycle, by the server's services, on `database`: every statement, per transaction. */
async function recordCycle(database: Database.Database): Promise<Recorded> {
  let current: CompiledQuery[] = [];
  const transactions: CompiledQuery[][] = [];
  const db: StoreDb = new Kysely<DatabaseSchema>({
    dialect: new SqliteDialect({ database }),
    // As the server's store opens SQLite (packages/server/src/store/store.ts).
    plugins: [new IgnoreRowLocksPlugin()],
    log: (event) => {
      // The driver's begin and commit are logged too: the replay runs its own around each transaction.
      if (event.level === 'query' && !/^(begin|commit|rollback)\b/i.test(event.query.sql)) current.push(event.query);
    },
  });
  const transact: Store['transact'] = async (work) => {
    current = [];
    const result = await db.transaction().execute(work);
    transactions.push(current);
    return result;
  };
  const deps = {
    store: { db, dialect: 'sqlite', transact } as unknown as Store,
    clock: systemClock,
    partnerUrlTemplate: undefined,
    onUpdateEnqueued: () => {},
    companies: { serves: () => true },
    newTaskLimits: { perAddressPerHour: 0, perCompanyPerHour: 0 },
    sensitiveKeys: sensitiveKeyRingOf({ sensitiveKeys: { keys: [{ kid: 'test', key: new Uint8Array(32) }] } }),
    log: { warn: () => {} },
    workflows: testWorkflows,
  } satisfies TaskServiceDeps;
  const context = {
    wxWorkerUuid: randomUUID(),
    wxAssignedTaskUuid: randomUUID(),
    wxTaskFlowUuid: randomUUID(),
    wxCompanyUuid: randomUUID(),
  };
  await openTask(deps, context, { address: '127.0.0.1' }, 'safety-training');
  // A first cycle brings the task where the load's tasks are (started, a restart behind them); the second is recorded.
  const updates: Recorded['updates'] = [];
  for (const record of [false, true]) {
    transactions.length = 0;
    updates.length = 0;
    for (const entry of STEP_CYCLE) {
      if (entry.kind === 'restart') await restartTask(deps, context);
      else await submitStep(deps, context, entry.path.split('/').at(-1)!, (JSON.parse(entry.body) as { data: unknown }).data);
      // The relay's part: a claim of the update just written and the settlement of the one before, in one transaction
      // as settleAndClaimRows does it (under load it claims and settles many rows at once: this is its dearest case).
      await transact(async (trx) => {
        const workerId = `floor-${randomUUID()}`;
        const claimed = await claimDeliverable(trx, { now: Date.now(), leaseMs: 30_000, limit: 64, workerId });
        await markManyDelivered(
          trx,
          claimed.map((row) => row.id),
          { now: Date.now(), workerId },
        );
        if (record) updates.push(...claimed.map((row) => ({ assignedTaskUuid: row.assignedTaskUuid, payload: row.payload })));
      });
    }
  }
  return { transactions: [...transactions], updates: [...updates] };
}

/** The relay's deliveries in flight by default (DELIVERY_CONCURRENCY, docs/configuration.md). */
const RELAY_CONCURRENCY = 32;

/** CPU of this process per update sent to the emulator through the relay's client, after a warm-up. */
async function measurePosts(emulatorUrl: string, update: { assignedTaskUuid: string; payload: unknown }, posts: number): Promise<number> {
  const upstream = {
    authUrl: emulatorUrl,
    baseUrl: emulatorUrl,
    taskBaseUrl: emulatorUrl,
    credential: { ...EMULATOR_CREDENTIAL },
    timeoutMs: 10_000,
  };
  const client = createWorkforceClient({ upstream, clock: systemClock });
  const send = () => client.updatePartnerTask(update.assignedTaskUuid, update.payload as Parameters<typeof client.updatePartnerTask>[1]);
  try {
    const sendChecked = async () => {
      const outcome = await send();
      if (outcome.kind !== 'delivered') throw new Error(`the floor's update was not delivered: ${outcome.kind}`);
    };
    // With several in flight, as the relay sends them under load.
    await runPool(200, RELAY_CONCURRENCY, sendChecked);
    const before = process.cpuUsage();
    await runPool(posts, RELAY_CONCURRENCY, sendChecked);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / posts;
  } finally {
    client.close();
  }
}
