import { systemClock, type Clock } from '@partner-task-kit/server/clock';
import { parseSensitiveKeys, sensitiveKeyRingOf } from '@partner-task-kit/server/sensitive/sensitive-keys';
import type { Store } from '@partner-task-kit/server/store/store';
import type { TaskServiceDeps } from '@partner-task-kit/server/task-progress/locked-task';
import { submitStep, type StepSubmissionOutcome } from '@partner-task-kit/server/task-progress/step.service';
import { getTask, openTask, restartTask, startTask } from '@partner-task-kit/server/task-progress/task.service';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import type { TaskView } from '@partner-task-kit/workflow/contract/task-view';
import type { WorkflowCatalog } from '@partner-task-kit/workflow/workflow-catalog';
import { newContext } from './task-app';
import { testWorkflows } from './test-workflows';
import { enqueuePartnerEvent, type PartnerEventType } from '@partner-task-kit/server/store/partner-events.repository';
import { findTaskById } from '@partner-task-kit/server/store/tasks.repository';
import type { Task } from '@partner-task-kit/server/store/tasks.table';

/** A task opened through the services, with the context its requests carry. */
export interface ServiceTask {
  /** Our task record's id: `partnerId` of its updates, `task_id` of its rows. */
  readonly id: string;
  readonly assignedTaskUuid: string;
  readonly companyUuid: string;
  readonly context: TaskContext;
}

/**
 * The services the task API's requests call, on a test's store: a test writes the rows a request would write (the
 * task, its history, its updates in the outbox), in the same transactions, and no other way.
 */
export interface TaskServices {
  readonly deps: TaskServiceDeps;
  /** A new task opened as POST /api/session opens it (its `ready` written); `context`'s, when given. */
  open(context?: Partial<TaskContext>, options?: { workflow?: string }): Promise<ServiceTask>;
  start(task: ServiceTask): Promise<TaskView>;
  restart(task: ServiceTask): Promise<TaskView>;
  submit(task: ServiceTask, stepId: string, data: unknown): Promise<StepSubmissionOutcome>;
  /**
   * One more update of the task, as a worker who starts and starts again sends them: `inProgress` when its attempt
   * has not started, `ready` (a new attempt) when it has. Each says which attempt, so no two of a task are alike.
   */
  nextUpdate(task: ServiceTask): Promise<TaskView>;
  /** A new task opened as `open` opens it, and its row as the store reads it back. */
  openStored(context?: Partial<TaskContext>): Promise<Task>;
  /** A new task with `count` updates written: its `ready`, then `nextUpdate`s. */
  openWithUpdates(count: number, context?: Partial<TaskContext>): Promise<ServiceTask>;
}

export interface TaskServicesOptions {
  clock?: Clock;
  workflows?: WorkflowCatalog;
  /** Every company's task changes are told to the partner's backend too (the partner lane), as with a webhook set. */
  partnerEvents?: boolean;
  /** Told after each commit that wrote updates, as the relay is woken. */
  onUpdateEnqueued?: () => void;
}

/** A key the sealed answers of these tests are sealed with (SENSITIVE_DATA_KEYS's format). */
const TEST_SENSITIVE_KEYS = 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export function taskServices(store: Store, options: TaskServicesOptions = {}): TaskServices {
  const parsedKeys = parseSensitiveKeys(TEST_SENSITIVE_KEYS);
  if (!parsedKeys.ok) throw new Error(parsedKeys.problem);
  const deps: TaskServiceDeps = {
    store,
    clock: options.clock ?? systemClock,
    partnerUrlTemplate: undefined,
    onUpdateEnqueued: options.onUpdateEnqueued ?? (() => {}),
    // Emulator mode's gate: every company is served.
    companies: {
      serves: () => true,
      ...(options.partnerEvents ? { partnerEvents: { tells: () => true, enqueued: () => {} } } : {}),
    },
    newTaskLimits: { perAddressPerHour: 0, perCompanyPerHour: 0 },
    sensitiveKeys: sensitiveKeyRingOf({ sensitiveKeys: { keys: parsedKeys.keys } }),
    log: { warn: () => {} },
    workflows: options.workflows ?? testWorkflows,
  };
  const open = async (given: Partial<TaskContext> = {}, openOptions: { workflow?: string } = {}): Promise<ServiceTask> => {
    const context = newContext(given);
    const view = await openTask(deps, context, { address: '127.0.0.1' }, openOptions.workflow);
    return { id: view.id, assignedTaskUuid: view.assignedTaskUuid, companyUuid: context.wxCompanyUuid, context };
  };
  const nextUpdate = async (task: ServiceTask) => {
    const { started } = await getTask(deps, task.context);
    return started ? restartTask(deps, task.context) : startTask(deps, task.context);
  };
  return {
    deps,
    open,
    start: (task) => startTask(deps, task.context),
    restart: (task) => restartTask(deps, task.context),
    submit: (task, stepId, data) => submitStep(deps, task.context, stepId, data),
    nextUpdate,
    async openStored(context) {
      const stored = await findTaskById(store.db, (await open(context)).id);
      if (!stored) throw new Error('the task just opened is not stored');
      return stored;
    },
    async openWithUpdates(count, context) {
      const task = await open(context);
      for (let written = 1; written < count; written += 1) await nextUpdate(task);
      return task;
    },
  };
}

/**
 * One event to the partner's backend and no update to the platform, written as the relay writes `task.rejected`
 * (enqueuePartnerEvent): no request writes an event without its update, and a test of the partner lane places its
 * rows at times of their own. The event's row id.
 */
export async function partnerEventAlone(store: Store, task: ServiceTask, type: PartnerEventType, now: number): Promise<number> {
  const stored = await findTaskById(store.db, task.id);
  if (!stored) throw new Error(`no task ${task.id}`);
  return store.db.transaction().execute(async (trx) => {
    await enqueuePartnerEvent(trx, { task: stored, type, now });
    const row = await trx.selectFrom('outbox').select('id').where('lane', '=', 'partner').orderBy('id', 'desc').executeTakeFirstOrThrow();
    return row.id;
  });
}
