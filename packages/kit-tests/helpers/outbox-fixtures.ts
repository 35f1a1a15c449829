import { randomUUID } from 'node:crypto';
import type { Clock } from '@partner-task-kit/server/clock';
import { enqueueUpdate } from '@partner-task-kit/server/store/outbox-enqueue.repository';
import type { Store } from '@partner-task-kit/server/store/store';
import { insertTask } from '@partner-task-kit/server/store/tasks.repository';
import type { TaskStatus } from '@partner-task-kit/workflow/contract/task-status';

export interface FixtureTask {
  id: string;
  assignedTaskUuid: string;
}

export async function createTask(store: Store, clock: Clock): Promise<FixtureTask> {
  const task = await insertTask(store.db, {
    assignedTaskUuid: randomUUID(),
    workerUuid: randomUUID(),
    taskFlowUuid: randomUUID(),
    companyUuid: randomUUID(),
    workflowId: 'fixture',
    now: clock.now(),
  });
  return { id: task.id, assignedTaskUuid: task.assignedTaskUuid };
}

/** Writes one update the way a task service does: in a transaction of its own. `details` numbers it for assertions. */
export async function enqueue(store: Store, clock: Clock, task: FixtureTask, index: number, taskStatus: TaskStatus = 'inProgress') {
  return store.db.transaction().execute((trx) =>
    enqueueUpdate(trx, {
      taskId: task.id,
      record: { taskStatus, partnerId: task.id, partnerStatus: { label: `Update ${index}`, details: String(index) } },
      now: clock.now(),
    }),
  );
}
