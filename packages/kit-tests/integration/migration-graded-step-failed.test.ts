import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { listHistory } from '@partner-task-kit/server/store/task-history.repository';
import { insertTaskIfAbsent } from '@partner-task-kit/server/store/tasks.repository';
import { failedTries } from '@partner-task-kit/server/task-progress/task-view';
import { asOlderTables, databaseAtMigration, type OlderSchemaDatabase } from '../helpers/older-schema';

// Migration 0022: a graded step's failed try is history kind `graded_step_failed`; the releases before it stored
// another name, and still write it while a rolling upgrade runs (docs/upgrading.md#history-kind-graded_step_failed).

const t0 = 1_700_000_000_000;
const earlierKind = 'quiz_failed';

let opened: OlderSchemaDatabase | undefined;
afterEach(async () => {
  await opened?.cleanup();
  opened = undefined;
});

const entry = (taskId: string, kind: string, at: number, detail: string | null = null) => ({
  task_id: taskId,
  attempt: 1,
  kind,
  step_id: kind === 'opened' ? null : 'graded-step',
  detail,
  at,
});

describe.each(['sqlite', 'postgres'] as const)('migration 0022 on %s', (dialect) => {
  /** Two tasks on the schema of the release before 0022. */
  async function earlierRelease() {
    opened = await databaseAtMigration(dialect, '0021_offer_checks');
    const newTask = () => ({
      assignedTaskUuid: randomUUID(),
      workerUuid: randomUUID(),
      taskFlowUuid: randomUUID(),
      companyUuid: randomUUID(),
      workflowId: 'sample-workflow',
      now: t0,
    });
    // The task row of that release is today's: written as the session service writes it.
    const { task } = await insertTaskIfAbsent(opened.db, newTask());
    const { task: other } = await insertTaskIfAbsent(opened.db, newTask());
    const writeAsEarlierRelease = (rows: ReturnType<typeof entry>[]) =>
      asOlderTables(opened!.db).insertInto('task_history').values(rows).execute();
    return { ...opened, task, other, writeAsEarlierRelease };
  }

  const storedKinds = (db: OlderSchemaDatabase['db']) =>
    db.selectFrom('task_history').select(['task_id', 'kind', 'detail']).orderBy('id').execute();

  it('renames the stored failed tries of graded steps, their scores kept, and leaves every other entry as it was', async () => {
    const { db, migrateToLatest, task, other, writeAsEarlierRelease } = await earlierRelease();
    await writeAsEarlierRelease([
      entry(task.id, 'opened', t0),
      entry(task.id, earlierKind, t0 + 1, '{"score":2,"total":5}'),
      entry(task.id, 'step_saved', t0 + 2, '{"score":5,"total":5}'),
      entry(other.id, earlierKind, t0 + 3, '{"score":1,"total":5}'),
    ]);

    await migrateToLatest();

    expect(await storedKinds(db)).toEqual([
      { task_id: task.id, kind: 'opened', detail: null },
      { task_id: task.id, kind: 'graded_step_failed', detail: '{"score":2,"total":5}' },
      { task_id: task.id, kind: 'step_saved', detail: '{"score":5,"total":5}' },
      { task_id: other.id, kind: 'graded_step_failed', detail: '{"score":1,"total":5}' },
    ]);
  });

  it("reads a failed try an earlier release writes after the migration ran (a rolling upgrade) as this release's, and counts it", async () => {
    const { db, migrateToLatest, task, writeAsEarlierRelease } = await earlierRelease();
    await writeAsEarlierRelease([entry(task.id, earlierKind, t0 + 1, '{"score":1,"total":5}')]);
    await migrateToLatest();
    // An instance not upgraded yet goes on serving on the migrated schema.
    await writeAsEarlierRelease([entry(task.id, earlierKind, t0 + 2, '{"score":3,"total":5}')]);

    const history = await listHistory(db, task.id);
    // A raw Postgres pool reads bigint as text (the store's own pool parses it): compared as numbers.
    expect(history.map(({ kind, at }) => ({ kind, at: Number(at) }))).toEqual([
      { kind: 'graded_step_failed', at: t0 + 1 },
      { kind: 'graded_step_failed', at: t0 + 2 },
    ]);
    expect(failedTries(history, 1, 'graded-step')).toEqual([
      { score: 1, total: 5 },
      { score: 3, total: 5 },
    ]);
    // Stored as that release wrote it: only reading renames it.
    expect((await storedKinds(db)).map(({ kind }) => kind)).toEqual(['graded_step_failed', earlierKind]);
  });
});
