import type { Clock } from '../clock';
import type { CompanyGate } from '../tenants/company-credentials';
import type { StoreDb } from '../store/database-schema';
import { enqueueUpdate } from '../store/outbox-enqueue.repository';
import { enqueuePartnerEvent } from '../store/partner-events.repository';
import { partnerEventTypeOf } from './partner-event-kinds';
import type { PartnerTaskUpdateRecord } from '../../src/contract/partner-task-update';
import { appendHistory, listAttemptHistory, type NewTaskHistoryEntry } from '../store/task-history.repository';
import type { TaskHistoryEntry } from '../store/task-history.table';
import type { Store } from '../store/store';
import { findTaskByAssignedTaskUuid, lockTaskByAssignedTaskUuid, saveLockedTask, type TaskChanges } from '../store/tasks.repository';
import type { Task } from '../store/tasks.table';
import { isSameContext, type TaskContext } from '../../src/contract/task-context';
import type { TaskView } from '../../src/contract/task-view';
import { findWorkflow } from '../../src/workflows/registry';
import type { WorkflowDefinition } from '../../src/workflows/workflow-definition';
import { apiError } from '../api-error';
import { partnerUrlFor, startedUpdate, type UpdateTarget } from './status-updates';
import { toTaskView } from './task-view';

export interface TaskServiceDeps {
  store: Store;
  clock: Clock;
  partnerUrlTemplate: string | undefined;
  /** Wakes the outbox relay after a commit that wrote updates (delivery starts without waiting for a poll). */
  onUpdateEnqueued: () => void;
  /** Which companies the server acts for (docs/decisions/008-a-deputy-for-many-companies.md: a company without a credential is refused). */
  companies: CompanyGate;
  /** New tasks per hour per address and per company (0: no limit). */
  newTaskLimits: { perAddressPerHour: number; perCompanyPerHour: number };
  /** For security events (a task asked for with another context). */
  log: { warn(object: object, message: string): void };
}

export interface LockedTask {
  trx: StoreDb;
  task: Task;
  workflow: WorkflowDefinition;
  target: UpdateTarget;
  now: number;
  /** Writes an update in this transaction (docs/decisions/002-outbox-not-dual-writes.md: outbox, never a call upstream from a request). */
  enqueue(record: PartnerTaskUpdateRecord): Promise<void>;
  /** The history of the task's current attempt, read once per transaction and kept current by `record`. */
  history(): Promise<readonly TaskHistoryEntry[]>;
  /** Writes changes to the locked task; returns it as now stored. */
  save(current: Task, changes: TaskChanges): Promise<Task>;
  /** Appends to the task's history, at this transaction's time. */
  record(entry: Omit<NewTaskHistoryEntry, 'taskId' | 'at'>): Promise<void>;
  /**
   * Marks the attempt started (docs/platform.md#statuses-and-transitions: ready -> inProgress on the first interaction), once per attempt, and sends
   * `inProgress` for it unless `carriedBy` says the caller's own update, written in this transaction, carries the
   * new status: a step saved before `start` is that first interaction too, and one click sends one update. Returns
   * the task as it now is.
   */
  startAttempt(options?: { carriedBy: 'step update' }): Promise<Task>;
  /** What the page sees of `task` (this transaction's task, as changed), with its history. */
  view(task: Task): Promise<TaskView>;
}

/** What every task write holds: its transaction, its time, and the way to write an update with it. */
export interface TaskTransaction {
  trx: StoreDb;
  now: number;
  /** Writes an update of `task` in this transaction (outbox, never a call upstream from a request). */
  enqueue(task: Task, record: PartnerTaskUpdateRecord): Promise<void>;
  /** Appends to `task`'s history (as changed in this transaction) and writes the partner's event of it, if any. */
  record(task: Task, entry: Omit<NewTaskHistoryEntry, 'taskId' | 'at'>): Promise<TaskHistoryEntry>;
}

/**
 * The one path of every task write (open, start, step, restart): one transaction, the updates written in it beside
 * the task change they report, and the relay woken once it has committed, so delivery starts without a poll.
 */
export async function inTaskTransaction<T>(deps: TaskServiceDeps, work: (tx: TaskTransaction) => Promise<T>): Promise<T> {
  let enqueued = 0;
  let events = 0;
  const result = await deps.store.transact(async (trx) => {
    const now = deps.clock.now();
    const enqueue = async (task: Task, record: PartnerTaskUpdateRecord) => {
      await enqueueUpdate(trx, { taskId: task.id, record, now, lockedTask: task });
      enqueued += 1;
    };
    // Each history entry of a kind the partner hears of writes its event in the same transaction: never one without the other.
    const record = async (task: Task, entry: Omit<NewTaskHistoryEntry, 'taskId' | 'at'>) => {
      const appended = await appendHistory(trx, { ...entry, taskId: task.id, at: now });
      const type = partnerEventTypeOf(entry.kind);
      if (type !== undefined && deps.companies.partnerEvents?.tells(task.companyUuid)) {
        await enqueuePartnerEvent(trx, { task, type, now, stepId: entry.stepId ?? null, attempt: entry.attempt });
        events += 1;
      }
      return appended;
    };
    return work({ trx, now, enqueue, record });
  });
  if (enqueued > 0) deps.onUpdateEnqueued();
  if (events > 0) deps.companies.partnerEvents?.enqueued();
  return result;
}

/** Where a task's updates go: its own id (`partnerId`) and the partner page about it, when configured. */
export function updateTargetOf(deps: Pick<TaskServiceDeps, 'partnerUrlTemplate'>, task: Task): UpdateTarget {
  return { taskId: task.id, partnerUrl: partnerUrlFor(deps.partnerUrlTemplate, task.assignedTaskUuid) };
}

/**
 * Runs one action in one transaction on the session's own task, locked for the duration (two clicks apply one after
 * the other). The token's four values must match the stored task: a token can act on its own task only.
 */
export function withLockedTask<T>(deps: TaskServiceDeps, context: TaskContext, action: (locked: LockedTask) => Promise<T>): Promise<T> {
  return withTaskLocked(
    deps,
    {
      assignedTaskUuid: context.wxAssignedTaskUuid,
      missing: taskGone,
      admit: (task) => assertSameContext(task, context),
    },
    action,
  );
}

/** Which task to lock, what to answer when there is none, and who may act on it (throws when the caller may not). */
export interface TaskLock {
  assignedTaskUuid: string;
  missing: () => Error;
  admit: (task: Task) => void;
}

/** One action on one task, locked in one transaction; the session's and the partner API's writes both come here. */
export function withTaskLocked<T>(deps: TaskServiceDeps, lock: TaskLock, action: (locked: LockedTask) => Promise<T>): Promise<T> {
  return inTaskTransaction(deps, async ({ trx, now, enqueue: enqueueFor, record: recordFor }) => {
    const task = await lockTaskByAssignedTaskUuid(trx, lock.assignedTaskUuid);
    if (!task) throw lock.missing();
    lock.admit(task);
    assertNotRejected(task);
    const target = updateTargetOf(deps, task);
    const enqueue = (record: PartnerTaskUpdateRecord) => enqueueFor(task, record);
    // One attempt's entries at a time: the view shows the attempt the task is in, which a restart moves on.
    let history: { attempt: number; entries: TaskHistoryEntry[] } | undefined;
    const historyOf = async (attempt: number) => {
      if (history?.attempt !== attempt) history = { attempt, entries: await listAttemptHistory(trx, task.id, attempt) };
      return history.entries;
    };
    const readHistory = () => historyOf(task.attempt);
    // The task as this transaction changed it: what an event of the partner's tells (its status, the step's data).
    let current = task;
    const record = async (entry: Omit<NewTaskHistoryEntry, 'taskId' | 'at'>) => {
      const appended = await recordFor(current, entry);
      if (history?.attempt === appended.attempt) history.entries.push(appended);
    };
    const workflow = workflowOf(task);
    const startAttempt = async (options?: { carriedBy: 'step update' }): Promise<Task> => {
      if (task.attemptStartedAt !== null) return task;
      const started = (current = await saveLockedTask(trx, task, { status: 'inProgress', attemptStartedAt: now }, now));
      if (options === undefined) await enqueue(startedUpdate(target, workflow, task.attempt));
      await record({ attempt: task.attempt, kind: 'started' });
      return started;
    };
    const save = async (from: Task, changes: TaskChanges) => (current = await saveLockedTask(trx, from, changes, now));
    const view = async (current: Task) => toTaskView(current, await historyOf(current.attempt), workflow);
    return action({ trx, task, workflow, target, now, enqueue, history: readHistory, save, record, startAttempt, view });
  });
}

/** The session's own task, read without a lock; the token's four values must match it. */
export async function readOwnTask(db: StoreDb, context: TaskContext): Promise<Task> {
  const task = await findTaskByAssignedTaskUuid(db, context.wxAssignedTaskUuid);
  // A signed token whose task is gone (a reset database): the page opens a new session, which recreates it.
  if (!task) throw taskGone();
  assertSameContext(task, context);
  assertNotRejected(task);
  return task;
}

/** docs/decisions/008-a-deputy-for-many-companies.md: the platform is the only authority on task ids; a task it refused costs nothing more. */
export function assertNotRejected(task: Task): void {
  if (task.rejectedAt !== null) {
    throw apiError('task_rejected', 'The platform does not know this task, so it cannot be done here. Open it again from the portal.');
  }
}

/**
 * The context is not signed by the platform (docs/platform.md#task-context), so the only check possible is consistency: an assigned task
 * keeps the worker, flow and company it was first opened with, compared as UUIDs (without letter case).
 */
export function hasSameContext(task: Task, context: TaskContext): boolean {
  return isSameContext(
    {
      wxAssignedTaskUuid: task.assignedTaskUuid,
      wxWorkerUuid: task.workerUuid,
      wxTaskFlowUuid: task.taskFlowUuid,
      wxCompanyUuid: task.companyUuid,
    },
    context,
  );
}

function taskGone() {
  return apiError('invalid_token', 'This session no longer matches a task; open the task again.');
}

/** A session token signed for one context acts only on the task stored with that same context. */
function assertSameContext(task: Task, context: TaskContext): void {
  if (!hasSameContext(task, context)) throw apiError('wrong_task', 'This session belongs to another task.');
}

export function workflowOf(task: Task): WorkflowDefinition {
  const registered = findWorkflow(task.workflowId);
  // A task whose workflow was removed from this deployment is our fault, not the worker's: a 500 with a log line.
  if (!registered) throw new Error(`task ${task.id} runs workflow ${task.workflowId}, which this server does not have`);
  return registered.definition;
}
